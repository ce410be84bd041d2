-- Markers (issue 18, and issue 15's song titles): one list per show, fed by the encoder's
-- Icecast metadata call and by the artist's hand. `at_ms` is the position on the show's
-- media timeline (ms of audio recorded when the title arrived), so the playlist can place
-- it exactly whatever happened to the wall clock (reconnects, restarts). Deleted with the
-- recording (`stream::ingest::purge_recordings`) and with the concert.
CREATE TABLE markers (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    at_ms BIGINT NOT NULL CHECK (at_ms >= 0),
    title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 255),
    artist TEXT CHECK (artist IS NULL OR length(artist) BETWEEN 1 AND 255),
    source TEXT NOT NULL CHECK (source IN ('encoder', 'artist')),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX markers_of_event ON markers (event_id, at_ms);

-- The encoder's last accepted title: at most one a second per show, on every instance at
-- once (a conditional UPDATE of this column claims the second).
ALTER TABLE events ADD COLUMN title_accepted_at BIGINT;
