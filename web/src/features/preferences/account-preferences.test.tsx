import { MantineProvider, localStorageColorSchemeManager, useComputedColorScheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import i18n, { setupI18n } from '../../i18n';
import { noteChosenSignedOut, noteSignedIn } from '../../lib/device-choices';
import { THEME_STORAGE_KEY } from '../../lib/constants';
import { clearSession, storeTokens } from '../auth/session';
import type { Theme } from '../users/model';
import { useAccountPreferences } from './account-preferences';

interface Call {
  url: string;
  method: string;
  body: unknown;
}

let calls: Call[];

function stubServer(): void {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', body: JSON.parse(String(init.body ?? 'null')) });
      return Promise.resolve(new Response(JSON.stringify({ success: true, payload: { id: 'a1' }, error: null }), { status: 200 }));
    }),
  );
}

/** The shell's hook for an account that chose `language` and `theme`; returns the scheme shown. */
function shell(account: { language: 'gb' | 'ir'; theme: Theme | null }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const manager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MantineProvider colorSchemeManager={manager} defaultColorScheme="dark">
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
  return renderHook(
    () => {
      useAccountPreferences({ id: 'a1', ...account });
      return useComputedColorScheme('dark');
    },
    { wrapper },
  );
}

describe("the account's language and theme on a device", () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    calls = [];
    localStorage.clear();
    sessionStorage.clear();
    storeTokens({ access_token: 'signed-in' });
    stubServer();
  });
  afterEach(async () => {
    clearSession();
    vi.unstubAllGlobals();
    await act(() => i18n.changeLanguage('gb'));
  });

  it("takes the account's language and theme at sign-in on a new device, and saves nothing", async () => {
    noteSignedIn();
    const { result } = shell({ language: 'ir', theme: 'light' });
    await waitFor(() => {
      expect(i18n.language).toBe('ir');
    });
    await waitFor(() => {
      expect(result.current).toBe('light');
    });
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(calls).toEqual([]);
  });

  it('keeps what this device chose itself, and saves nothing', async () => {
    localStorage.setItem('language', 'gb');
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    noteSignedIn();
    const { result } = shell({ language: 'ir', theme: 'light' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(i18n.language).toBe('gb');
    expect(result.current).toBe('dark');
    expect(calls).toEqual([]);
  });

  it('keeps the device as it is when no sign-in just happened (a reload)', async () => {
    const { result } = shell({ language: 'ir', theme: 'light' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(i18n.language).toBe('gb');
    expect(result.current).toBe('dark');
  });

  it('keeps the device theme where the account never chose one', async () => {
    noteSignedIn();
    const { result } = shell({ language: 'gb', theme: null });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current).toBe('dark');
    expect(calls).toEqual([]);
  });

  it('sends what was chosen on the sign-in page to the account instead, once', async () => {
    await act(() => i18n.changeLanguage('ir'));
    noteChosenSignedOut('language');
    noteChosenSignedOut('theme');
    noteSignedIn();
    const { result } = shell({ language: 'gb', theme: 'light' });
    await waitFor(() => {
      expect(calls).toEqual([{ url: '/api/v1/accounts/a1', method: 'PUT', body: { language: 'ir', theme: 'dark' } }]);
    });
    expect(i18n.language).toBe('ir');
    expect(result.current).toBe('dark');
    expect(localStorage.getItem('encore.chosen-signed-out')).toBeNull();
  });
});
