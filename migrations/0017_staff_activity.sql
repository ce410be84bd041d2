-- Staff activity (sign-ups, sales, refunds, failed payments, shows going live, dropping,
-- ending), stored once per happening in the transaction of its cause, and read by every
-- admin and super admin from here: the staff's Live page and its feed. It used to be copied
-- into a notification row per staff member (with 4,155 admins, 4,155 sign-ups wrote 2.7 GB);
-- now a staff member's notifications are what concerns them alone. Copies already written
-- stay: they are that staff member's history, and deleting them could take long.
CREATE TABLE staff_activity (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN
        ('signup', 'sale', 'refund', 'payment_failed', 'show_live', 'show_dropped', 'show_ended')),
    at BIGINT NOT NULL,
    event_id TEXT,
    event_title TEXT,
    account_id TEXT,
    account_name TEXT,
    amount BIGINT,
    currency TEXT
);
CREATE INDEX staff_activity_at ON staff_activity (at);
