-- A moderator may dismiss a report (the message stays): open reports are those neither
-- dismissed nor of a deleted message, listed for moderators who open the panel late.
ALTER TABLE chat_reports ADD COLUMN dismissed_at BIGINT;
ALTER TABLE chat_reports ADD COLUMN dismissed_by TEXT;
CREATE INDEX chat_reports_event ON chat_reports (event_id, created_at);
