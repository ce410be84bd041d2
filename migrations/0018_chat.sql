-- The live room (issue 29): a concert's chat, its reactions, its settings, and what its
-- moderators did. Every message keeps the show's media time its author was hearing, so a
-- listener sees it at the same bar of music, live or in the replay.
CREATE TABLE chat_messages (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    -- As shown: the first name and the initial when it was written.
    author TEXT NOT NULL,
    -- 'artist' (a member of the concert's project), 'staff', or nothing (a fan).
    badge TEXT CHECK (badge IN ('artist', 'staff')),
    body TEXT NOT NULL,
    -- Milliseconds from the show's first sample (0 before anything aired).
    media_time BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT,
    deleted_by TEXT
);
CREATE INDEX chat_messages_timeline ON chat_messages (event_id, media_time, created_at);
CREATE INDEX chat_messages_author ON chat_messages (event_id, account_id, created_at);

-- One row per concert whose room was ever set: what its moderators chose. (When its show
-- ended, which keeps posting open an hour more, is its `show_ended` staff activity.)
CREATE TABLE chat_rooms (
    event_id TEXT PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
    pinned_message_id TEXT,
    slow_mode_seconds BIGINT NOT NULL DEFAULT 0,
    closed BIGINT NOT NULL DEFAULT 0
);

-- Who may not post: a timeout in one concert's room (until a time), or a ban from every
-- room of a project (no end).
CREATE TABLE chat_restrictions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    event_id TEXT REFERENCES events(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    until BIGINT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX chat_restrictions_account ON chat_restrictions (account_id, project_id);

-- The room's reactions, counted per second of the show's media time, for the replay.
CREATE TABLE chat_reactions (
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    second BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('applause', 'heart', 'fire')),
    count BIGINT NOT NULL,
    PRIMARY KEY (event_id, second, kind)
);

-- A fan's report of a message (once per reporter and message).
CREATE TABLE chat_reports (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    message_id TEXT NOT NULL REFERENCES chat_messages(id) ON DELETE CASCADE,
    reporter_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    UNIQUE (message_id, reporter_id)
);

-- Every moderation action: who, what, when (staff read it).
CREATE TABLE chat_moderation_log (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    action TEXT NOT NULL,
    account_id TEXT,
    message_id TEXT,
    detail TEXT,
    at BIGINT NOT NULL
);
CREATE INDEX chat_moderation_log_event ON chat_moderation_log (event_id, at);
