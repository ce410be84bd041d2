import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { authKeys } from '../auth/queries';
import { clearSession, storeTokens } from '../auth/session';
import { useTimeZoneSync } from './time-zone-sync';

interface Call {
  url: string;
  method: string;
  body: unknown;
}

let calls: Call[];

/** The browser says it is in `zone`. */
function browserIn(zone: string): void {
  const real = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...real.call(this), timeZone: zone };
  });
}

function stubServer(status = 200): void {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', body: JSON.parse(String(init.body ?? 'null')) });
      const ok = status < 400;
      const envelope = { success: ok, payload: ok ? { id: 'x' } : null, error: ok ? null : 'Unknown time zone' };
      return Promise.resolve(new Response(JSON.stringify(envelope), { status }));
    }),
  );
}

function sync(user: { id: string; timeZone: string | null }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidated = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook((props: { id: string; timeZone: string | null }) => { useTimeZoneSync(props); }, { initialProps: user, wrapper });
  return { ...hook, invalidated };
}

describe("keeping the account's time zone that of the browser", () => {
  beforeEach(() => {
    calls = [];
    storeTokens({ access_token: 'signed-in' });
  });
  afterEach(() => {
    clearSession();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('saves the browser zone once when the stored one differs, then reads the account again', async () => {
    browserIn('Asia/Tehran');
    stubServer();
    const { rerender, invalidated } = sync({ id: 'differs', timeZone: 'Europe/London' });
    await waitFor(() => { expect(invalidated).toHaveBeenCalledWith({ queryKey: authKeys.me }); });
    expect(calls).toEqual([{ url: '/api/v1/accounts/differs', method: 'PUT', body: { timeZone: 'Asia/Tehran' } }]);
    // The account read again says the new zone: nothing more to send.
    rerender({ id: 'differs', timeZone: 'Asia/Tehran' });
    await Promise.resolve();
    expect(calls).toHaveLength(1);
  });

  it('sends the zone of an account that has none yet', async () => {
    browserIn('America/Sao_Paulo');
    stubServer();
    sync({ id: 'unknown', timeZone: null });
    await waitFor(() => { expect(calls).toHaveLength(1); });
    expect(calls[0]?.body).toEqual({ timeZone: 'America/Sao_Paulo' });
  });

  it('sends nothing when the zones are equal', async () => {
    browserIn('Asia/Tehran');
    stubServer();
    const { rerender } = sync({ id: 'equal', timeZone: 'Asia/Tehran' });
    rerender({ id: 'equal', timeZone: 'Asia/Tehran' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
  });

  it('tries once per page load: a refused zone is not asked again, even by a new shell', async () => {
    browserIn('Asia/Tehran');
    stubServer(400);
    const first = sync({ id: 'refused', timeZone: 'UTC' });
    await waitFor(() => { expect(calls).toHaveLength(1); });
    first.rerender({ id: 'refused', timeZone: 'UTC' });
    first.unmount();
    sync({ id: 'refused', timeZone: 'UTC' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(1);
    expect(first.invalidated).not.toHaveBeenCalled();
  });
});
