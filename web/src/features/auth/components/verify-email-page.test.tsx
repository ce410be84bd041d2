import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { setupI18n } from '../../../i18n';
import { clearSession } from '../session';
import { VerifyEmailPage } from './verify-email-page';

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
            <VerifyEmailPage />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

describe('verify e-mail page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    clearSession();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('spends the token once and offers to sign in', async () => {
    const fetchMock = answer(200, null);
    vi.stubGlobal('fetch', fetchMock);
    renderPage('/auth/verify-email?token=abc');
    expect(await screen.findByText('E-mail address confirmed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/verify-email$/);
    expect(JSON.parse(String(init?.body))).toMatchObject({ token: 'abc' });
  });

  it("shows the server's refusal", async () => {
    vi.stubGlobal('fetch', answer(400, 'This verification link is invalid, has expired or was already used.'));
    renderPage('/auth/verify-email?token=used');
    expect(await screen.findByTestId('verify-email-error')).toHaveTextContent('This verification link is invalid');
  });

  it('says so when the link has no token', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderPage('/auth/verify-email');
    expect(screen.getByText('This link is incomplete: the verification code is missing.')).toBeInTheDocument();
  });
});
