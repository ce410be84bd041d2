-- The IANA time zone the account reads times in (`Europe/Lisbon`), as its browser reported
-- it; NULL: unknown, and times are written in UTC. Checked against the time zone database
-- when written.
ALTER TABLE accounts ADD COLUMN time_zone TEXT;
