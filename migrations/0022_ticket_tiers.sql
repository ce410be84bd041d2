-- Ticket tiers (issue 31): a concert sells through one or more tiers, each with its own
-- name, description and price (in the concert's currency), an optional capacity of its
-- own inside the concert's, an optional sale window, and hidden ones (not listed to the
-- public). `events.seats_taken` still counts every tier's seats (sold plus held by
-- pending orders) against the concert's capacity; a tier's `seats_taken` counts its own
-- against its capacity. Exactly one tier per concert is its default: the one
-- `POST /cart/{eventId}` adds, whose price `events.price_minor` mirrors.
CREATE TABLE ticket_tiers (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
    -- NULL: no capacity of its own (the concert's holds).
    capacity BIGINT CHECK (capacity IS NULL OR capacity > 0),
    seats_taken BIGINT NOT NULL DEFAULT 0 CHECK (seats_taken >= 0),
    sale_opens_at BIGINT,
    sale_closes_at BIGINT,
    hidden BIGINT NOT NULL DEFAULT 0,
    is_default BIGINT NOT NULL DEFAULT 0,
    position BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CHECK (capacity IS NULL OR seats_taken <= capacity),
    CHECK (sale_opens_at IS NULL OR sale_closes_at IS NULL OR sale_opens_at < sale_closes_at),
    CHECK (is_default = 0 OR hidden = 0)
);
CREATE INDEX ticket_tiers_event ON ticket_tiers (event_id, position);
CREATE UNIQUE INDEX ticket_tiers_one_default ON ticket_tiers (event_id) WHERE is_default = 1;

-- Every existing concert becomes one default tier at its price, holding its seats; its
-- capacity stays the concert's.
INSERT INTO ticket_tiers (id, event_id, name, description, price_minor, capacity, seats_taken,
    hidden, is_default, position, created_at, updated_at)
SELECT 'tier-' || id, id, 'Standard', '', price_minor, NULL, seats_taken, 0, 1, 0,
    created_at, updated_at
FROM events;

-- Which tier a cart entry, an order line and a ticket are of (NULL for passes).
ALTER TABLE cart_items ADD COLUMN tier_id TEXT;
ALTER TABLE order_items ADD COLUMN tier_id TEXT REFERENCES ticket_tiers (id);
ALTER TABLE order_items ADD COLUMN tier_name TEXT;
ALTER TABLE tickets ADD COLUMN tier_id TEXT REFERENCES ticket_tiers (id);

UPDATE cart_items SET tier_id = 'tier-' || item_id
WHERE item_kind = 'event' AND item_id IN (SELECT id FROM events);
UPDATE order_items SET tier_id = 'tier-' || item_id, tier_name = 'Standard'
WHERE item_kind = 'event' AND item_id IN (SELECT id FROM events);
UPDATE tickets SET tier_id = 'tier-' || event_id;
CREATE INDEX order_items_tier ON order_items (tier_id);
