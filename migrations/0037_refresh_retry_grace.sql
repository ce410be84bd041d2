-- A refresh token presented again within a few seconds of its rotation, before the pair
-- it was exchanged for was used, is answered again: its answer was lost (a reload cut the
-- request off). The pair answered the first time is then superseded (spent, with this
-- stamp), and a superseded token coming back is reuse like any spent one.
ALTER TABLE refresh_tokens ADD COLUMN superseded_at BIGINT;
