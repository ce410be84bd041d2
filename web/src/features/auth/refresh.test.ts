import { getCookie, setCookie } from '../../lib/cookies';
import { COOKIE, clearSession, getValidAccessToken, installRefresher, onSessionChange, storeTokens } from './session';

const jwt = (exp: number): string => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;
const now = (): number => Math.floor(Date.now() / 1000);
/** What the server's token answer leaves behind: its readable flag beside the HttpOnly cookie. */
const serverSignedIn = (): void => {
  setCookie(COOKIE.signedIn, '1');
};

describe('access token refresh', () => {
  beforeEach(() => {
    clearSession();
  });

  it('uses the access token while it has time left', async () => {
    const refresher = vi.fn();
    installRefresher(refresher);
    const token = jwt(now() + 900);
    serverSignedIn();
    storeTokens({ access_token: token });
    expect(await getValidAccessToken()).toBe(token);
    expect(refresher).not.toHaveBeenCalled();
  });

  it('refreshes once through the cookie, before expiry, even for concurrent calls', async () => {
    const fresh = jwt(now() + 900);
    const refresher = vi.fn().mockResolvedValue({ access_token: fresh });
    installRefresher(refresher);
    serverSignedIn();
    storeTokens({ access_token: jwt(now() + 20) });
    const [a, b] = await Promise.all([getValidAccessToken(), getValidAccessToken()]);
    expect(a).toBe(fresh);
    expect(b).toBe(fresh);
    expect(refresher).toHaveBeenCalledTimes(1);
    expect(refresher).toHaveBeenCalledWith();
    expect(getCookie(COOKIE.accessToken)).toBe(fresh);
    expect(document.cookie).not.toMatch(/refresh/);
  });

  it('after a reload with no access token left, the flag alone brings a fresh one', async () => {
    const fresh = jwt(now() + 900);
    const refresher = vi.fn().mockResolvedValue({ access_token: fresh });
    installRefresher(refresher);
    serverSignedIn();
    expect(await getValidAccessToken()).toBe(fresh);
  });

  it('without the flag there is nothing to refresh', async () => {
    const refresher = vi.fn();
    installRefresher(refresher);
    storeTokens({ access_token: jwt(now() - 5) });
    await getValidAccessToken();
    expect(refresher).not.toHaveBeenCalled();
  });

  it('clears the session when the refresh is refused', async () => {
    installRefresher(vi.fn().mockRejectedValue(new Error('reused')));
    serverSignedIn();
    storeTokens({ access_token: jwt(now() - 5) });
    expect(await getValidAccessToken()).toBeNull();
    expect(getCookie(COOKIE.accessToken)).toBeNull();
    expect(getCookie(COOKIE.signedIn)).toBeNull();
  });

  it('refreshes a token the server refused even with time left, once another tab has not already', async () => {
    const refused = jwt(now() + 900);
    const fresh = jwt(now() + 901);
    const refresher = vi.fn().mockResolvedValue({ access_token: fresh });
    installRefresher(refresher);
    serverSignedIn();
    storeTokens({ access_token: refused });
    expect(await getValidAccessToken(refused)).toBe(fresh);
    expect(await getValidAccessToken(refused)).toBe(fresh);
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it('tells the session listeners when tokens are stored', () => {
    const listener = vi.fn();
    const off = onSessionChange(listener);
    storeTokens({ access_token: jwt(now() + 900) });
    off();
    storeTokens({ access_token: jwt(now() + 901) });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
