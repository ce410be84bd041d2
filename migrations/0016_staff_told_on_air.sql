-- What the staff were last told of a concert's encoder: 1 "on air", 0 "off air" (or
-- nothing yet). A notice goes only when this flips, so a flapping encoder tells the staff
-- once per change, not once per connection.
ALTER TABLE events ADD COLUMN staff_told_on_air INTEGER NOT NULL DEFAULT 0;
