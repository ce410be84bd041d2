import i18n, { setupI18n } from '../../i18n';
import { setCookie } from '../../lib/cookies';
import { refreshTokens, register, signOut, signUp } from './api';
import { COOKIE, clearSession, getAuthStatus } from './session';

interface Call {
  url: string;
  init: RequestInit;
}

function answer(payload: unknown, state: (body: Record<string, unknown>) => unknown): (url: string, init: RequestInit) => Promise<Response> {
  return (_url, init) => {
    const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
    return Promise.resolve(new Response(JSON.stringify({ success: true, payload, error: null, state: state(body) }), { status: 200 }));
  };
}

describe('sign-in calls and the HttpOnly refresh cookie', () => {
  let calls: Call[];
  beforeEach(() => {
    clearSession();
    calls = [];
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubFetch(reply: (url: string, init: RequestInit) => Promise<Response>): void {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        calls.push({ url, init });
        return reply(url, init);
      }),
    );
  }

  it('a refresh sends no refresh token: the browser adds its cookie to the same-origin call', async () => {
    stubFetch(answer({ status: 'OK', access_token: 'fresh' }, (body) => body.state));
    expect(await refreshTokens()).toEqual({ access_token: 'fresh' });
    const [call] = calls;
    expect(call?.url).toBe('/api/v1/oauth2/token');
    expect(call?.init.credentials).toBe('same-origin');
    const body = JSON.parse(String(call?.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ grant_type: 'refresh_token', client_id: 'encore-web' });
    expect(body).not.toHaveProperty('refresh_token');
  });

  it('signing out with only the flag left still asks the server to end the session', async () => {
    stubFetch(answer(null, () => undefined));
    setCookie(COOKIE.signedIn, '1');
    await signOut();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/oauth2/logout']);
    expect(new Headers(calls[0]?.init.headers).get('Authorization')).toBeNull();
    expect(getAuthStatus().hasToken).toBe(false);
  });
});

describe('signing up in the language on the screen', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('gb');
  });

  it('sign-up and register carry the language the visitor chose, which the account keeps for its notifications', async () => {
    await setupI18n('gb');
    // The visitor picks Persian before signing up (signed out: nothing is saved yet).
    await i18n.changeLanguage('ir');
    const calls: RequestInit[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        calls.push(init);
        const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
        return Promise.resolve(new Response(JSON.stringify({ success: true, payload: { id: 'a1' }, error: null, state: body.state }), { status: 201 }));
      }),
    );
    await signUp({ email: 'pari@example.com', password: 'a-long-password', firstName: 'Pari', lastName: 'Sa' });
    await register('pari@example.com', 'a-long-password');
    expect(calls.map((init) => new Headers(init.headers).get('Accept-Language'))).toEqual(['fa-IR', 'fa-IR']);
  });

  it("sign-up and register carry the browser's time zone, in which notifications write their times", async () => {
    const real = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...real.call(this), timeZone: 'Asia/Tehran' };
    });
    const bodies: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
        bodies.push(body);
        return Promise.resolve(new Response(JSON.stringify({ success: true, payload: { id: 'a1' }, error: null, state: body.state }), { status: 201 }));
      }),
    );
    await signUp({ email: 'pari@example.com', password: 'a-long-password', firstName: 'Pari', lastName: 'Sa' });
    await register('pari@example.com', 'a-long-password');
    vi.restoreAllMocks();
    expect(bodies[0]).toMatchObject({ timeZone: 'Asia/Tehran' });
    expect(bodies[1]).toMatchObject({ time_zone: 'Asia/Tehran' });
  });
});
