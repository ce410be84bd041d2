-- Hammer `authorize` with wrong passwords for ever-new unknown e-mails: every request
-- costs a full argon2id verification (the decoy hash), the worst case for the server.
local redirect = os.getenv("REDIRECT_URI") or "http://127.0.0.1:18181/auth/callback"
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Basic ZW5jb3JlLXdlYjo=" -- base64("encore-web:")

request = function()
  counter = counter + 1
  local body = string.format(
    '{"email":"nobody-%d-%d@example.com","password":"not the password","response_type":"code",' ..
    '"response_mode":"query","scope":"openid profile email","redirect_uri":"%s",' ..
    '"code_challenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","code_challenge_method":"S256",' ..
    '"client_id":"encore-web","state":"bench"}',
    math.random(1, 1000000000), counter, redirect)
  return wrk.format(nil, nil, nil, body)
end
