import { COOKIE, clearSession } from '../auth/session';
import { setCookie } from '../../lib/cookies';
import { setTokenProvider } from '../../lib/http';
import { saveMyLanguage, saveMyTheme } from './api';

const ACCESS = `h.${btoa(JSON.stringify({ sub: 'acc-7', exp: 4_000_000_000 })).replace(/=+$/, '')}.s`;

function reply(body: unknown): Response {
  return new Response(JSON.stringify({ success: true, payload: body, error: null }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

describe("saving the signed-in account's language and theme", () => {
  beforeEach(() => {
    clearSession();
    setCookie(COOKIE.accessToken, ACCESS);
    setTokenProvider(() => Promise.resolve(ACCESS));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it('is one request, to the account the access token names, kept alive through a reload', async () => {
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(reply({ id: 'acc-7' })));
    vi.stubGlobal('fetch', fetchMock);
    await saveMyTheme('light');
    await saveMyLanguage('ir');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const calls = fetchMock.mock.calls as [string, RequestInit][];
    for (const [url, init] of calls) {
      expect(url).toMatch(/\/api\/v1\/accounts\/acc-7$/);
      expect(init.method).toBe('PUT');
      expect(init.keepalive).toBe(true);
    }
    expect(JSON.parse(String(calls[0]?.[1].body))).toEqual({ theme: 'light' });
    expect(JSON.parse(String(calls[1]?.[1].body))).toEqual({ language: 'ir' });
  });
});
