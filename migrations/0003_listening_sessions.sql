-- Listening sessions: the one live session of each ticket (or pass, per concert), kept so
-- that a restarted server still honours the playlist URLs it handed out. Requests never
-- read this table: it is loaded into memory at start and written when a session opens.

CREATE TABLE listening_sessions (
    -- A ticket id, or `pass:<pass id>:<event id>` for a pass covering the concert.
    holder TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    ticket_id TEXT REFERENCES tickets (id) ON DELETE CASCADE,
    pass_id TEXT REFERENCES passes (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX listening_sessions_expiry ON listening_sessions (expires_at);
