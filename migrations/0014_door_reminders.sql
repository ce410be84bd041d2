-- "Remind me when doors open" (issue 15): a signed-in fan, ticket or not, asks to be told
-- when a concert's doors open. One row per account and concert (the key bounds what one
-- account can store); it goes with the account and with the concert. The notice is sent by
-- the once-per-concert reminder (`events.reminded_at`) together with the ticket holders'.
CREATE TABLE door_reminders (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, event_id)
);
CREATE INDEX door_reminders_of_event ON door_reminders (event_id);
