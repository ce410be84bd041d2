-- Security findings 6 and 7 (MFA enrolment, step-up, e-mail change, QR approval).

-- When the session passed the SMS second factor (unix ms); NULL: it did not (no second
-- factor on the account, a QR sign-in, or a session from before this rule).
ALTER TABLE sessions ADD COLUMN second_factor_at BIGINT;

-- Single-use links for account changes, stored hashed like the reset links: enrolling a
-- phone on an account whose second factor is on but has no phone, and confirming a new
-- login e-mail (`new_login`, applied only when its link is followed). A table of their
-- own, so the purposes of `one_time_tokens` stay as they are.
CREATE TABLE account_links (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose TEXT NOT NULL CHECK (purpose IN ('enrol_phone', 'change_email')),
    new_login TEXT,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX account_links_account ON account_links (account_id);

-- A QR sign-in shows the approver the requesting device (User-Agent, trimmed) and place
-- (its IP address as Encore sees it), and the number the requesting device shows among
-- two decoys (`choices`, comma-separated, in the order shown).
ALTER TABLE qr_logins ADD COLUMN device TEXT NOT NULL DEFAULT '';
ALTER TABLE qr_logins ADD COLUMN place TEXT NOT NULL DEFAULT '';
ALTER TABLE qr_logins ADD COLUMN match_number BIGINT NOT NULL DEFAULT 0;
ALTER TABLE qr_logins ADD COLUMN choices TEXT NOT NULL DEFAULT '';
