-- When the account proved it owns its e-mail address (unix ms); NULL: not yet. Nothing is
-- sent by SMS to an account until it has (SMS pumping). Accounts made before the rule
-- count as verified from their creation.
ALTER TABLE accounts ADD COLUMN email_verified_at BIGINT;
UPDATE accounts SET email_verified_at = created_at;

-- Verification links live with reset and invitation links: the purpose CHECK gains
-- 'verify'. SQLite cannot alter a CHECK, so the (short-lived) table is rebuilt, the
-- same way on both databases.
CREATE TABLE one_time_tokens_v2 (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'invite', 'verify')),
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
INSERT INTO one_time_tokens_v2 (token_hash, account_id, purpose, expires_at, used_at, created_at)
    SELECT token_hash, account_id, purpose, expires_at, used_at, created_at FROM one_time_tokens;
DROP TABLE one_time_tokens;
ALTER TABLE one_time_tokens_v2 RENAME TO one_time_tokens;
CREATE INDEX one_time_tokens_account ON one_time_tokens (account_id);
