import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { setupI18n } from '../../../i18n';
import { clearSession } from '../session';
import { ConfirmEmailPage } from './confirm-email-page';

/** Answers the OAuth call in the envelope, echoing the request's state. */
function answer(status: number, error: string | null) {
  return vi.fn((_url: string, init: RequestInit) => {
    const { state } = JSON.parse(String(init.body)) as { state: string };
    return Promise.resolve(new Response(JSON.stringify({ success: error === null, payload: null, error, state }), { status }));
  });
}

function renderPage(path: string): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <StrictMode>
      <MantineProvider>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[path]}>
            <ConfirmEmailPage />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

describe('confirm new e-mail page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    clearSession();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('spends the token once', async () => {
    const fetchMock = answer(200, null);
    vi.stubGlobal('fetch', fetchMock);
    renderPage('/auth/confirm-email?token=abc');
    expect(await screen.findByText('E-mail address changed')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/confirm-email$/);
    expect(JSON.parse(String(init?.body))).toMatchObject({ token: 'abc' });
  });

  it('shows a 409 when the address was taken meanwhile', async () => {
    vi.stubGlobal('fetch', answer(409, 'User already exists'));
    renderPage('/auth/confirm-email?token=late');
    expect(await screen.findByTestId('confirm-email-error')).toHaveTextContent('User already exists');
  });
});
