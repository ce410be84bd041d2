import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { setupI18n } from '../../../i18n';
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
});
