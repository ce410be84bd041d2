-- Pay what you want (issue 31): a tier with a minimum price lets the buyer name the amount
-- they pay, at least that minimum; its `price_minor` stays the suggested amount (the one
-- shown, and the cart's when the buyer names none). NULL: a fixed price. A minimum of 0
-- makes free tickets (an order of total 0 is paid at once, without a payment provider).
ALTER TABLE ticket_tiers ADD COLUMN min_price_minor BIGINT
    CHECK (min_price_minor IS NULL OR min_price_minor >= 0);
-- The amount the buyer named for a pay-what-you-want tier in the cart (NULL: the tier's
-- price, fixed or suggested).
ALTER TABLE cart_items ADD COLUMN amount_minor BIGINT;
