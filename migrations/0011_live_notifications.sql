-- Live over WebSocket (issue 13).
--
-- A notification opens a page when clicked (`link`, a dashboard path). It is stored in the
-- same transaction as its cause and published on the bus after the commit: `published_at`
-- stays NULL until then, so a job republishes what a crash or a bus outage left behind
-- (the table is its own outbox). Rows from before are taken as published.
ALTER TABLE notifications ADD COLUMN link TEXT;
ALTER TABLE notifications ADD COLUMN published_at BIGINT;
UPDATE notifications SET published_at = created_at;
CREATE INDEX notifications_unpublished ON notifications (created_at) WHERE published_at IS NULL;

-- Once-per-concert notices, claimed by whichever instance sets the column first
-- (`UPDATE … WHERE <column> IS NULL`), so several instances never send one twice.
ALTER TABLE events ADD COLUMN reminded_at BIGINT;
ALTER TABLE events ADD COLUMN live_notified_at BIGINT;
ALTER TABLE events ADD COLUMN first_listener_at BIGINT;
