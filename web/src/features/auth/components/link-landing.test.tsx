import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { setupI18n } from '../../../i18n';
import { renderPage } from '../../../test/render';
import { clearSession } from '../session';
import { ConfirmEmailPage } from './confirm-email-page';
import { VerifyEmailPage } from './verify-email-page';

/** Answers the OAuth call in the envelope, echoing the request's state. */
function answer(status: number, error: string | null) {
  return vi.fn((_url: string, init: RequestInit) => {
    const { state } = JSON.parse(String(init.body)) as { state: string };
    return Promise.resolve(new Response(JSON.stringify({ success: error === null, payload: null, error, state }), { status }));
  });
}

const PAGES: { name: string; page: ReactNode; path: string; done: string; missing: string }[] = [
  {
    name: 'the welcome e-mail link (verify-email)',
    page: <VerifyEmailPage />,
    path: '/auth/verify-email',
    done: 'E-mail address confirmed',
    missing: 'This link is incomplete: the verification code is missing.',
  },
  {
    name: 'the new-address link (confirm-email)',
    page: <ConfirmEmailPage />,
    path: '/auth/confirm-email',
    done: 'E-mail address changed',
    missing: 'This link is incomplete: the confirmation code is missing.',
  },
];

describe.each(PAGES)('$name', ({ page, path, done, missing }) => {
  const endpoint = path.replace('/auth', '');
  const testId = endpoint.slice(1);
  beforeAll(async () => {
    await setupI18n('gb');
    clearSession();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('spends the token once, on arrival', async () => {
    const fetchMock = answer(200, null);
    vi.stubGlobal('fetch', fetchMock);
    renderPage(page, `${path}?token=abc`, { strict: true });
    expect(await screen.findByText(done)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toMatch(new RegExp(`${endpoint}$`));
    expect(JSON.parse(String(init?.body))).toMatchObject({ token: 'abc' });
  });

  it('offers to sign in when nobody is signed in', async () => {
    vi.stubGlobal('fetch', answer(200, null));
    renderPage(page, `${path}?token=abc`, { strict: true });
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it("shows the server's refusal as it reads", async () => {
    vi.stubGlobal('fetch', answer(409, 'User already exists'));
    renderPage(page, `${path}?token=late`, { strict: true });
    expect(await screen.findByTestId(`${testId}-error`)).toHaveTextContent('User already exists');
  });

  it('says so when the link has no token, and calls nothing', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderPage(page, path, { strict: true });
    expect(screen.getByText(missing)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
