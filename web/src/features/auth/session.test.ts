import { COOKIE, clearSession, getAuthStatus, jwtExpiry, needsRefresh, storeMfaToken, storeTokens, storeAuthorizationCode, storeCodeVerifier } from './session';
import { getCookie, setCookie } from '../../lib/cookies';

const jwt = (exp: number): string => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;

describe('session pieces in cookies', () => {
  beforeEach(() => {
    clearSession();
  });

  it('E108: clears the code and stores the MFA token', () => {
    storeAuthorizationCode('code-1');
    storeMfaToken('mfa-1');
    expect(getCookie(COOKIE.code)).toBeNull();
    expect(getCookie(COOKIE.mfaToken)).toBe('mfa-1');
    expect(getAuthStatus().isAuthorized).toBe(false);
  });

  it('OK: clears code and MFA token, stores the access token and never a refresh token', () => {
    storeAuthorizationCode('code-1');
    storeMfaToken('mfa-1');
    storeTokens({ access_token: 'a' });
    expect(getCookie(COOKIE.mfaToken)).toBeNull();
    expect(getCookie(COOKIE.code)).toBeNull();
    expect(getCookie(COOKIE.accessToken)).toBe('a');
    expect(document.cookie).not.toMatch(/refresh/);
    expect(getAuthStatus()).toMatchObject({ isAuthorized: true, hasToken: true });
  });

  it("the server's signed-in flag alone counts as a session (the access token is refreshed from it)", () => {
    setCookie(COOKIE.signedIn, '1');
    clearSession();
    expect(getAuthStatus().hasToken).toBe(false);
    setCookie(COOKIE.signedIn, '1');
    storeMfaToken('m'); // any change re-reads the cookies
    expect(getAuthStatus()).toMatchObject({ isAuthorized: true, hasToken: true });
  });

  it('logout clears every piece script can reach, the legacy refresh cookie too', () => {
    storeCodeVerifier('v');
    storeAuthorizationCode('c');
    storeTokens({ access_token: 'a' });
    storeMfaToken('m');
    setCookie(COOKIE.signedIn, '1');
    setCookie('encore_refresh_token', 'left-by-an-old-version');
    clearSession();
    for (const name of Object.values(COOKIE)) expect(getCookie(name)).toBeNull();
    expect(getCookie('encore_refresh_token')).toBeNull();
    expect(getAuthStatus()).toEqual({ isAuthorized: false, hasAuthenticators: false, hasToken: false });
  });

  it('refreshes a token before it expires', () => {
    const now = 1_000_000;
    expect(jwtExpiry(jwt(now + 900))).toBe(now + 900);
    expect(needsRefresh(jwt(now + 900), now)).toBe(false);
    expect(needsRefresh(jwt(now + 30), now)).toBe(true);
    expect(needsRefresh(null, now)).toBe(true);
  });
});
