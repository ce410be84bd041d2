-- Several tickets in one order (issue 31): a cart entry and an order line carry a
-- quantity of tickets of one tier. An order line's `price_minor` stays what was paid for
-- the whole line (the statements and the promo code's shares add lines up as before);
-- each ticket keeps its own share of it (`tickets.price_minor`, split to the cent), which
-- a cancelled concert refunds.
ALTER TABLE cart_items ADD COLUMN quantity BIGINT NOT NULL DEFAULT 1 CHECK (quantity >= 1);
ALTER TABLE order_items ADD COLUMN quantity BIGINT NOT NULL DEFAULT 1 CHECK (quantity >= 1);
ALTER TABLE tickets ADD COLUMN price_minor BIGINT;
UPDATE tickets SET price_minor = (SELECT i.price_minor FROM order_items i
    WHERE i.order_id = tickets.order_id AND i.item_kind = 'event' AND i.item_id = tickets.event_id);

-- A spare ticket is bought beside the buyer's own: held by them to keep or give, but no
-- access to listen with, and not their one ticket of the concert (so the unique index
-- ignores it, as it ignores a given one). Kept, it becomes their own (spare = 0) if they
-- hold none; claimed as a gift, the claimant's own.
ALTER TABLE tickets ADD COLUMN spare BIGINT NOT NULL DEFAULT 0 CHECK (spare IN (0, 1));

DROP INDEX tickets_one_per_account;
-- A ticket is personal: one held live ticket of their own per concert per account.
CREATE UNIQUE INDEX tickets_one_per_account ON tickets (account_id, event_id)
    WHERE revoked_at IS NULL AND given_at IS NULL AND spare = 0;
