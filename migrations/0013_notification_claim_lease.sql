-- A relay's claim on an unpublished notification is a lease: `published_at` holds minus the
-- time the claim runs until, so a relay that dies between its claim and its publish leaves a
-- claim that expires, and a later round publishes the notification (positive: published at;
-- NULL: not yet claimed). The relay's index covers both.
DROP INDEX notifications_unpublished;
CREATE INDEX notifications_unpublished ON notifications (created_at)
    WHERE published_at IS NULL OR published_at < 0;
