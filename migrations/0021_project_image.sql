-- An artist's picture (a project's), shown on its public page `/artists/{id}`: the
-- re-encoded file's media type and a version that changes with every upload (the URL
-- carries it, so browsers may cache the file for good).
ALTER TABLE projects ADD COLUMN image_type TEXT;
ALTER TABLE projects ADD COLUMN image_version BIGINT;
