-- What a promo code took off each order line (issue 31), so a statement can show its
-- artist's ticket sales before discounts and the discounts beside them. An order line's
-- `price_minor` stays what was paid for it (after its share of the code). Orders of one
-- line before this: the order's discount was that line's; orders of several lines kept
-- only their total, and their lines count no discount.
ALTER TABLE order_items ADD COLUMN discount_minor BIGINT NOT NULL DEFAULT 0
    CHECK (discount_minor >= 0);
UPDATE order_items SET discount_minor = (SELECT o.discount_minor FROM orders o
    WHERE o.id = order_items.order_id)
WHERE order_id IN (SELECT order_id FROM order_items GROUP BY order_id HAVING COUNT(*) = 1);

-- A concert's own tip settings (issue 31), set by its artist or staff: tips on or off,
-- the presets offered (minor units of its currency, comma-separated, smallest first) and
-- the smallest tip. A concert without a row takes the defaults (on; 2, 5, 10, 20; 1).
CREATE TABLE tip_settings (
    event_id TEXT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    enabled BIGINT NOT NULL CHECK (enabled IN (0, 1)),
    presets TEXT NOT NULL,
    minimum_minor BIGINT NOT NULL CHECK (minimum_minor > 0),
    updated_at BIGINT NOT NULL
);
