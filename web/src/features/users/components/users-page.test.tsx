import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import { storeTokens } from '../../auth/session';
import { authKeys } from '../../auth/queries';
import type { Account } from '../model';
import { toUser } from '../model';
import { roleChoices, UsersPage } from './users-page';
import { account } from '../../../test/fixtures';

const admin = account({ id: 'admin-1', login: 'admin@example.com', person: { firstName: 'Ada', lastName: 'Admin' }, roles: ['admin'] });

function page(items: Account[]): Response {
  return new Response(JSON.stringify({ success: true, payload: { items, total: items.length, page: 1, pageSize: 10 }, error: null }));
}

function renderPage(): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(authKeys.me, toUser(admin));
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <UsersPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('users page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    storeTokens({ access_token: 'a' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for page 1, 10 per page, and says "Items not found" when the list is empty', async () => {
    const fetchMock = vi.fn().mockResolvedValue(page([]));
    vi.stubGlobal('fetch', fetchMock);
    renderPage();
    expect(await screen.findByText('Items not found')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/accounts?page=1&pageSize=10');
  });

  it('offers an admin creating an account the fan role only (the server refuses them an admin)', () => {
    expect(roleChoices('admin')).toEqual(['user']);
    expect(roleChoices('sa')).toEqual(['user', 'admin', 'sa']);
  });

  it('lists users with their full name, e-mail and role', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(page([admin, { ...admin, id: 'u2', login: 'fan@example.com', person: { firstName: 'Fiona', lastName: 'Fan' }, roles: ['user'] }])));
    renderPage();
    expect(await screen.findByText('Fiona Fan')).toBeInTheDocument();
    expect(screen.getByText('fan@example.com')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.getAllByTestId('user-row')).toHaveLength(2);
    });
  });

  it('says "Active" in words where the switch is not the reader’s to use (their own row), a switch elsewhere', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(page([admin, { ...admin, id: 'u2', login: 'fan@example.com', person: { firstName: 'Fiona', lastName: 'Fan' }, roles: ['user'] }])));
    renderPage();
    await waitFor(() => {
      expect(screen.getAllByTestId('user-row')).toHaveLength(2);
    });
    const [own, fan] = screen.getAllByTestId('user-row');
    expect(own?.querySelector('[data-testid="user-active-state"]')).toHaveTextContent('Active');
    expect(fan?.querySelector('[data-testid="user-active-state"]')).toBeNull();
    expect(fan?.querySelector('input[type="checkbox"][aria-label="Active"]')).not.toBeNull();
  });

  it('on a phone shows each user as a card, with the same test ids, labels and controls, and no table', async () => {
    // Below Mantine's `sm` breakpoint (the one media query the page asks about matches).
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query.includes('min-width') });
    try {
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(page([admin, { ...admin, id: 'u2', login: 'fan@example.com', person: { firstName: 'Fiona', lastName: 'Fan' }, roles: ['user'] }])));
      renderPage();
      await waitFor(() => {
        expect(screen.getAllByTestId('user-row')).toHaveLength(2);
      });
      expect(document.querySelector('table')).toBeNull();
      expect(screen.getByTestId('users-table')).toBeInTheDocument();
      const [own, fan] = screen.getAllByTestId('user-row');
      expect(own?.querySelector('[data-testid="user-active-state"]')).toHaveTextContent('Active');
      expect(fan?.querySelector('input[type="checkbox"][aria-label="Active"]')).not.toBeNull();
      expect(fan?.querySelector('button[aria-label="Actions"]')).not.toBeNull();
      expect([...(fan?.querySelectorAll('dt') ?? [])].map((term) => term.textContent)).toEqual(['Role', 'Active', 'Two-step', 'Created']);
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('dates an account’s creation in English as toLocaleDateString does', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(page([admin])));
    renderPage();
    const [row] = await screen.findAllByTestId('user-row');
    expect(row).toHaveTextContent(new Date('2026-11-22T10:00:00Z').toLocaleDateString('en-GB'));
  });

  it('writes an account’s creation date, the total and the page numbers in Persian with no Latin digit', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(page([admin])));
    await act(() => i18n.changeLanguage('ir'));
    try {
      renderPage();
      const [row] = await screen.findAllByTestId('user-row');
      const created = new Date('2026-11-22T10:00:00Z').toLocaleDateString('fa-IR');
      expect(created).toMatch(/^[۰-۹/]+$/);
      expect(row).toHaveTextContent(created);
      expect(screen.getByRole('button', { name: '۱' })).toBeInTheDocument();
      // The page's words, less Mantine's style sheets and the one e-mail address.
      const shown = document.body.cloneNode(true) as HTMLElement;
      for (const style of shown.querySelectorAll('style')) style.remove();
      expect(shown.textContent.replaceAll('admin@example.com', '')).not.toMatch(/[,0-9]/);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });
});
