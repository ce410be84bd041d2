-- Artists' statements (issue 31). The fee the payment provider took on an order, as it
-- reported it (0 for the test provider); which concert a refund gave back a ticket of (a
-- cancelled concert's refunds; an order's own refund names none and is shared over its
-- lines); a project's own platform fee, in basis points (NULL: the operator's default).
ALTER TABLE orders ADD COLUMN fee_minor BIGINT NOT NULL DEFAULT 0;
ALTER TABLE refunds ADD COLUMN event_id TEXT;
ALTER TABLE projects ADD COLUMN platform_fee_bp BIGINT;
CREATE INDEX orders_paid ON orders (paid_at);
CREATE INDEX refunds_created ON refunds (created_at);
CREATE INDEX passes_valid_until ON passes (valid_until);
