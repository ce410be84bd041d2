-- Portable across SQLite and PostgreSQL: TEXT ids, BIGINT unix-ms times, BIGINT 0/1 flags.

CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    login TEXT NOT NULL,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL CHECK (role IN ('user', 'admin', 'sa')),
    enabled BIGINT NOT NULL DEFAULT 1,
    use_mfa BIGINT NOT NULL DEFAULT 0,
    phone TEXT,
    password_hash TEXT,
    notes TEXT NOT NULL DEFAULT '',
    avatar_type TEXT,
    avatar_version BIGINT,
    tenant_key TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX accounts_login ON accounts (login);
CREATE INDEX accounts_created_at ON accounts (created_at);

CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret_hash TEXT,
    redirect_uris TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    revoked_at BIGINT,
    revoked_reason TEXT
);
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE auth_codes (
    code_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scope TEXT NOT NULL,
    nonce TEXT,
    second_factor_done BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    session_id TEXT
);

CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

CREATE TABLE mfa_challenges (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scope TEXT NOT NULL,
    nonce TEXT,
    expires_at BIGINT NOT NULL,
    otp_hash TEXT,
    otp_expires_at BIGINT,
    otp_attempts BIGINT NOT NULL DEFAULT 0,
    pending_phone TEXT,
    consumed_at BIGINT
);

-- Password-reset and invitation links.
CREATE TABLE one_time_tokens (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'invite')),
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX one_time_tokens_account ON one_time_tokens (account_id);

-- A signed-in account changing its second-factor phone.
CREATE TABLE phone_verifications (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    phone TEXT NOT NULL,
    otp_hash TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE qr_logins (
    id_hash TEXT PRIMARY KEY,
    poll_hash TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scope TEXT NOT NULL,
    nonce TEXT,
    expires_at BIGINT NOT NULL,
    approved_by TEXT REFERENCES accounts (id) ON DELETE CASCADE,
    approved_at BIGINT,
    collected_at BIGINT,
    created_at BIGINT NOT NULL
);

CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('message', 'upload', 'topic')),
    title TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    sender TEXT,
    upload_type TEXT,
    read_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX notifications_account ON notifications (account_id, created_at);
