-- Clients whose refresh token travels in an HttpOnly cookie instead of the token answer's
-- body (1: the dashboard, a browser app on this origin, whose script must never see it).
-- Other clients (scripts, native apps) keep it in the body, as RFC 6749 has it.
ALTER TABLE oauth_clients ADD COLUMN refresh_in_cookie BIGINT NOT NULL DEFAULT 0;
UPDATE oauth_clients SET refresh_in_cookie = 1 WHERE id = 'encore-web';
