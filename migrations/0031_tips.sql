-- Tips during the show (issue 31): a ticket or pass holder tips a concert's artist in its
-- currency. A tip is paid as an order of its own (no lines: no seat, no ticket) so it goes
-- through the providers, refunds and statements as every order does; this row says which
-- concert it is for and what its tipper wrote. Paid when its order is.
CREATE TABLE tips (
    order_id TEXT PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
    event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX tips_event ON tips (event_id, created_at);

-- A paid tip is said in the concert's room: a message of its own kind, with its amount.
ALTER TABLE chat_messages ADD COLUMN tip_minor BIGINT;
ALTER TABLE chat_messages ADD COLUMN tip_currency TEXT;
