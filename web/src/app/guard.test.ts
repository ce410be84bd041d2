import { clearSession, storeTokens } from '../features/auth/session';
import { queryClient } from '../lib/query-client';
import { requireRoles } from './guard';
import { ROUTE_ROLES } from './access';

function me(role: string): Response {
  const account = {
    id: 'u1',
    login: 'someone@example.com',
    person: { firstName: 'Some', lastName: 'One' },
    roles: [role],
    enablement: { enabled: true, useMFA: false },
    createdAt: '2026-11-22T10:00:00Z',
    tenantKey: 'encore',
    language: 'gb',
    theme: null,
  };
  return new Response(JSON.stringify({ success: true, payload: [account], error: null }), { status: 200 });
}

async function run(loader: ReturnType<typeof requireRoles>, path: string): Promise<unknown> {
  try {
    return await loader({ request: new Request(`http://localhost${path}`), params: {}, context: undefined } as never);
  } catch (thrown) {
    return thrown;
  }
}

const location = (value: unknown): string | null => (value instanceof Response ? value.headers.get('Location') : null);

describe('navigation guard (route loader)', () => {
  beforeEach(() => {
    clearSession();
    queryClient.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a visitor without a session to sign in, remembering the page', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    expect(location(await run(requireRoles(ROUTE_ROLES.users), '/users?x=1'))).toBe('/auth/login?redirect=%2Fusers%3Fx%3D1');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches userinfo/me and sends a user opening /users to /403', async () => {
    storeTokens({ access_token: 'a' });
    const fetchMock = vi.fn().mockResolvedValue(me('user'));
    vi.stubGlobal('fetch', fetchMock);
    expect(location(await run(requireRoles(ROUTE_ROLES.users), '/users'))).toBe('/403');
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/accounts/userinfo/me');
  });

  it('lets an admin in and hands the page the user', async () => {
    storeTokens({ access_token: 'a' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(me('admin')));
    expect(await run(requireRoles(ROUTE_ROLES.users), '/users')).toMatchObject({ role: 'admin', fullname: 'Some One' });
  });

  it('lets an sa into every payments page and the outbox, as an admin', async () => {
    storeTokens({ access_token: 'a' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(me('sa')));
    for (const route of ['payment-methods', 'billing', 'pricing-plans', 'orders', 'outbox'] as const) {
      expect(await run(requireRoles(ROUTE_ROLES[route]), `/${route}`)).toMatchObject({ role: 'sa' });
    }
  });

  it('sends to sign in when the server says the session is gone (401)', async () => {
    storeTokens({ access_token: 'a' });
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response(JSON.stringify({ success: false, payload: null, error: 'expired' }), { status: 401 })),
    );
    expect(location(await run(requireRoles(ROUTE_ROLES.dashboard), '/dashboard'))).toBe('/auth/login?redirect=%2Fdashboard');
  });
});
