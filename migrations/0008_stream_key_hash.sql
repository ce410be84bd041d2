-- Stream keys are stored hashed (SHA-256, hex) and shown once, at rotation; the last four
-- characters stay as a hint to tell keys apart. `stream_key` is kept (blanked) because a
-- portable DROP COLUMN is not worth it. Keys stored in plain text before this migration
-- are hashed and blanked at start by `events::store::hash_legacy_stream_keys` (SQLite has
-- no SHA-256), so encoders keep working with the key they have.
ALTER TABLE events ADD COLUMN stream_key_hash TEXT;
ALTER TABLE events ADD COLUMN stream_key_hint TEXT;
