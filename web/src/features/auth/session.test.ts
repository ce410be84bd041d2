import { COOKIE, clearSession, getAuthStatus, jwtExpiry, needsRefresh, storeMfaToken, storeTokens, storeAuthorizationCode, storeCodeVerifier } from './session';
import { getCookie } from '../../lib/cookies';

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

  it('OK: clears code and MFA token, stores access and refresh tokens', () => {
    storeAuthorizationCode('code-1');
    storeMfaToken('mfa-1');
    storeTokens({ access_token: 'a', refresh_token: 'r' });
    expect(getCookie(COOKIE.mfaToken)).toBeNull();
    expect(getCookie(COOKIE.code)).toBeNull();
    expect(getCookie(COOKIE.accessToken)).toBe('a');
    expect(getAuthStatus()).toMatchObject({ isAuthorized: true, hasToken: true });
  });

  it('logout clears every piece', () => {
    storeCodeVerifier('v');
    storeAuthorizationCode('c');
    storeTokens({ access_token: 'a', refresh_token: 'r' });
    storeMfaToken('m');
    clearSession();
    for (const name of Object.values(COOKIE)) expect(getCookie(name)).toBeNull();
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
