-- At most one pending order (one set of held seats) per account, enforced by the
-- database, and the client address of each hold, so holds can be capped per address.
-- Older duplicates are closed first and their seats given back.
ALTER TABLE orders ADD COLUMN client_ip TEXT;

UPDATE events SET seats_taken = seats_taken - (
    SELECT COUNT(*) FROM order_items oi JOIN orders o ON o.id = oi.order_id
    WHERE oi.item_kind = 'event' AND oi.item_id = events.id AND o.status = 'pending'
      AND EXISTS (
        SELECT 1 FROM orders newer
        WHERE newer.account_id = o.account_id AND newer.status = 'pending'
          AND (newer.created_at > o.created_at
               OR (newer.created_at = o.created_at AND newer.id > o.id))))
WHERE id IN (SELECT item_id FROM order_items WHERE item_kind = 'event');

UPDATE orders SET status = 'expired', failure = 'replaced by a newer checkout'
WHERE status = 'pending' AND EXISTS (
    SELECT 1 FROM orders newer
    WHERE newer.account_id = orders.account_id AND newer.status = 'pending'
      AND (newer.created_at > orders.created_at
           OR (newer.created_at = orders.created_at AND newer.id > orders.id)));

CREATE UNIQUE INDEX orders_one_pending_per_account ON orders (account_id) WHERE status = 'pending';
CREATE INDEX orders_pending_by_client ON orders (client_ip) WHERE status = 'pending';
