import { getCookie } from '../../lib/cookies';
import { COOKIE, clearSession, getValidAccessToken, installRefresher, storeTokens } from './session';

const jwt = (exp: number): string => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;
const now = (): number => Math.floor(Date.now() / 1000);

describe('access token refresh', () => {
  beforeEach(() => {
    clearSession();
  });

  it('uses the access token while it has time left', async () => {
    const refresher = vi.fn();
    installRefresher(refresher);
    const token = jwt(now() + 900);
    storeTokens({ access_token: token, refresh_token: 'r1' });
    expect(await getValidAccessToken()).toBe(token);
    expect(refresher).not.toHaveBeenCalled();
  });

  it('refreshes once, before expiry, even for concurrent calls, and stores the rotated tokens', async () => {
    const fresh = jwt(now() + 900);
    const refresher = vi.fn().mockResolvedValue({ access_token: fresh, refresh_token: 'r2' });
    installRefresher(refresher);
    storeTokens({ access_token: jwt(now() + 20), refresh_token: 'r1' });
    const [a, b] = await Promise.all([getValidAccessToken(), getValidAccessToken()]);
    expect(a).toBe(fresh);
    expect(b).toBe(fresh);
    expect(refresher).toHaveBeenCalledTimes(1);
    expect(refresher).toHaveBeenCalledWith('r1');
    expect(getCookie(COOKIE.refreshToken)).toBe('r2');
  });

  it('clears the session when the refresh is refused', async () => {
    installRefresher(vi.fn().mockRejectedValue(new Error('reused')));
    storeTokens({ access_token: jwt(now() - 5), refresh_token: 'r1' });
    expect(await getValidAccessToken()).toBeNull();
    expect(getCookie(COOKIE.accessToken)).toBeNull();
  });
});
