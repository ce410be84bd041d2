-- Money paid out to an artist against a month's statement in one currency, recorded by
-- staff where no payment provider pays artists by itself (issue 31): a statement shows
-- what was paid out and what is still owed.
CREATE TABLE payouts (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    period TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    reference TEXT NOT NULL DEFAULT '',
    recorded_by TEXT REFERENCES accounts (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX payouts_project_period ON payouts (project_id, period);
