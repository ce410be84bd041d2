-- Promo codes (issue 31): a code takes a percentage or an amount off the lines of the
-- concerts it applies to (one concert, or every concert of its project when `event_id`
-- is NULL), or unlocks hidden tiers. `code` is stored upper-cased, so lookups are
-- case-insensitive. `uses_taken` counts the orders carrying it that are pending or were
-- paid: a checkout takes a use in the transaction that holds its seats (never above
-- `max_uses`), and an unpaid checkout that ends gives it back, as it gives back seats.
CREATE TABLE promo_codes (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    event_id TEXT REFERENCES events (id) ON DELETE CASCADE,
    code TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('percent', 'amount', 'unlock')),
    -- percent: 1..100; amount: minor units of `currency`; unlock: 0.
    value BIGINT NOT NULL CHECK (value >= 0),
    currency TEXT,
    max_uses BIGINT CHECK (max_uses IS NULL OR max_uses > 0),
    max_per_account BIGINT CHECK (max_per_account IS NULL OR max_per_account > 0),
    valid_from BIGINT,
    valid_until BIGINT,
    uses_taken BIGINT NOT NULL DEFAULT 0 CHECK (uses_taken >= 0),
    created_at BIGINT NOT NULL,
    CHECK (max_uses IS NULL OR uses_taken <= max_uses),
    CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_from < valid_until)
);
CREATE INDEX promo_codes_project ON promo_codes (project_id);

-- The hidden tiers an `unlock` code makes listed and buyable.
CREATE TABLE promo_code_tiers (
    code_id TEXT NOT NULL REFERENCES promo_codes (id) ON DELETE CASCADE,
    tier_id TEXT NOT NULL REFERENCES ticket_tiers (id) ON DELETE CASCADE,
    PRIMARY KEY (code_id, tier_id)
);

-- The code an account entered in its cart (one at a time).
CREATE TABLE cart_promo_codes (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    code_id TEXT NOT NULL REFERENCES promo_codes (id) ON DELETE CASCADE,
    added_at BIGINT NOT NULL
);

-- The code an order carries and what it took off (minor units; the lines' prices are
-- already the discounted ones, so the total is their sum). The code's text is kept, so
-- a deleted code still shows on its receipts.
ALTER TABLE orders ADD COLUMN promo_code_id TEXT;
ALTER TABLE orders ADD COLUMN promo_code TEXT;
ALTER TABLE orders ADD COLUMN discount_minor BIGINT NOT NULL DEFAULT 0;
CREATE INDEX orders_promo_code ON orders (promo_code_id, account_id);
