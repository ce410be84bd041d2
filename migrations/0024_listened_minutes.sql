-- The minutes each listener heard of each concert, by UTC day: a pass's revenue is shared
-- among the projects whose concerts its holder listened to, in proportion to them (the
-- artists' statements). `holder` is the listening session's key (a ticket id, or
-- `pass:<pass id>:<event id>`); `last_minute` (unix minutes) is the last minute counted,
-- so that instances hearing the same listener in the same minute count it once.
CREATE TABLE listened_minutes (
    holder TEXT NOT NULL,
    day BIGINT NOT NULL,
    event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    pass_id TEXT REFERENCES passes (id) ON DELETE CASCADE,
    minutes BIGINT NOT NULL,
    last_minute BIGINT NOT NULL,
    PRIMARY KEY (holder, day)
);
CREATE INDEX listened_minutes_pass ON listened_minutes (pass_id, day);
CREATE INDEX listened_minutes_event ON listened_minutes (event_id, day);
