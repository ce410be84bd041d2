-- Payouts that reach the artist (issue 31). With Stripe Connect, a project's connected
-- account and its state as Stripe last told it; an order paid as a destination charge
-- names the connected account it went to and the application fee the platform kept.
-- Without Connect, the bank details a project is paid to by hand (the account number
-- sealed at rest, as the organiser's billing profile's is).
ALTER TABLE orders ADD COLUMN connect_account TEXT;
ALTER TABLE orders ADD COLUMN application_fee_minor BIGINT NOT NULL DEFAULT 0;
CREATE TABLE payout_accounts (
    project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    stripe_account TEXT NOT NULL UNIQUE,
    charges_enabled BIGINT NOT NULL DEFAULT 0,
    payouts_enabled BIGINT NOT NULL DEFAULT 0,
    details_submitted BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE project_bank_details (
    project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    account_holder TEXT NOT NULL DEFAULT '',
    account_number TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    updated_by TEXT REFERENCES accounts (id) ON DELETE SET NULL,
    updated_at BIGINT NOT NULL
);
