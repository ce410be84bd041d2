-- Artist projects, concerts, cart, orders, tickets, passes, payments. Portable as 0001.

CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'archived')),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX projects_name ON projects (name);

CREATE TABLE project_members (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    added_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, account_id)
);
CREATE INDEX project_members_account ON project_members (account_id);

CREATE TABLE events (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id),
    title TEXT NOT NULL,
    artist_name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    starts_at BIGINT NOT NULL,
    duration_minutes BIGINT NOT NULL,
    price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
    currency TEXT NOT NULL,
    capacity BIGINT CHECK (capacity IS NULL OR capacity > 0),
    -- Seats sold plus seats held by pending orders; never above capacity.
    seats_taken BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('draft', 'published', 'live', 'ended', 'cancelled')),
    stream_key TEXT NOT NULL,
    image_type TEXT,
    image_version BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CHECK (capacity IS NULL OR seats_taken <= capacity)
);
CREATE INDEX events_status_start ON events (status, starts_at);
CREATE INDEX events_project ON events (project_id);

-- All-access passes an admin defines.
CREATE TABLE pricing_plans (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
    currency TEXT NOT NULL,
    days BIGINT NOT NULL CHECK (days > 0),
    active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE cart_items (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    item_kind TEXT NOT NULL CHECK (item_kind IN ('event', 'pass')),
    item_id TEXT NOT NULL,
    added_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, item_kind, item_id)
);

CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'fulfilled', 'failed', 'expired', 'refunded')),
    total_minor BIGINT NOT NULL,
    currency TEXT NOT NULL,
    provider TEXT NOT NULL,
    provider_ref TEXT,
    checkout_token_hash TEXT NOT NULL,
    failure TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    paid_at BIGINT,
    fulfilled_at BIGINT,
    refunded_at BIGINT
);
CREATE INDEX orders_account ON orders (account_id, created_at);
CREATE INDEX orders_status_expiry ON orders (status, expires_at);

CREATE TABLE order_items (
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    item_kind TEXT NOT NULL CHECK (item_kind IN ('event', 'pass')),
    item_id TEXT NOT NULL,
    title TEXT NOT NULL,
    price_minor BIGINT NOT NULL,
    PRIMARY KEY (order_id, item_kind, item_id)
);

CREATE TABLE tickets (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    event_id TEXT NOT NULL REFERENCES events (id),
    order_id TEXT NOT NULL REFERENCES orders (id),
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
-- A ticket is personal: one live ticket per concert per account.
CREATE UNIQUE INDEX tickets_one_per_account ON tickets (account_id, event_id) WHERE revoked_at IS NULL;
CREATE INDEX tickets_event ON tickets (event_id);

CREATE TABLE passes (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    plan_id TEXT NOT NULL REFERENCES pricing_plans (id),
    order_id TEXT NOT NULL REFERENCES orders (id),
    valid_from BIGINT NOT NULL,
    valid_until BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX passes_account ON passes (account_id);

CREATE TABLE refunds (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    amount_minor BIGINT NOT NULL,
    reason TEXT NOT NULL,
    provider_ref TEXT,
    created_at BIGINT NOT NULL
);

-- Webhook deliveries already handled (duplicates are ignored).
CREATE TABLE payment_events (
    provider TEXT NOT NULL,
    event_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (provider, event_id)
);

-- The organiser's billing address and bank details (one row).
CREATE TABLE billing_profile (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    bank_name TEXT NOT NULL DEFAULT '',
    account_name TEXT NOT NULL DEFAULT '',
    sort_code TEXT NOT NULL DEFAULT '',
    account_number TEXT NOT NULL DEFAULT '',
    bank_notes TEXT NOT NULL DEFAULT '',
    updated_at BIGINT NOT NULL
);
