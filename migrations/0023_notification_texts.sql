-- A notification the server wrote keeps its title and body as messages (JSON: the message's
-- key and its arguments), so that each reading writes them in the reader's language of the
-- moment; `title` and `body` stay as written for the recipient then (the live push, and
-- what is read when `texts` is empty or names a message a later version dropped).
ALTER TABLE notifications ADD COLUMN texts TEXT;
