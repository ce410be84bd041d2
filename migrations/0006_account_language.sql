-- The language messages to the account are written in (a dashboard code: gb, br, es, cn, ir).
ALTER TABLE accounts ADD COLUMN language TEXT NOT NULL DEFAULT 'gb';
