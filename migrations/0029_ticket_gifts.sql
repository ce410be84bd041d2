-- Tickets as gifts (issue 31): a holder gives a ticket not yet listened with to an e-mail
-- address; its owner claims it through a single-use link (only the token's hash is kept).
-- While a gift is pending the ticket stays live (sold, refundable, counted) but is held by
-- nobody: `tickets.given_at` is set, it gives its giver no access and no longer counts as
-- their one ticket of the concert (so they may buy again). Claimed, it moves to the
-- claimant (`account_id`) and `given_at` is cleared; taken back, it returns to the giver.
ALTER TABLE tickets ADD COLUMN given_at BIGINT;

DROP INDEX tickets_one_per_account;
-- A ticket is personal: one held live ticket per concert per account.
CREATE UNIQUE INDEX tickets_one_per_account ON tickets (account_id, event_id)
    WHERE revoked_at IS NULL AND given_at IS NULL;

CREATE TABLE ticket_gifts (
    id TEXT PRIMARY KEY,
    ticket_id TEXT NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    giver_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Lower-cased, as accounts' logins are.
    email TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'taken_back', 'revoked')),
    claimant_id TEXT REFERENCES accounts (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    sent_at BIGINT NOT NULL,
    ended_at BIGINT,
    CHECK ((status = 'pending') = (ended_at IS NULL))
);
CREATE UNIQUE INDEX ticket_gifts_token ON ticket_gifts (token_hash);
-- At most one pending gift of a ticket.
CREATE UNIQUE INDEX ticket_gifts_one_pending ON ticket_gifts (ticket_id) WHERE status = 'pending';
CREATE INDEX ticket_gifts_giver ON ticket_gifts (giver_id, created_at);
