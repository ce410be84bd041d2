import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { setupI18n } from '../../../i18n';
import { setTokenProvider } from '../../../lib/http';
import type * as Session from '../session';
import { QrApprovePage } from './qr-approve-page';

vi.mock('../session', async (importOriginal) => ({
  ...(await importOriginal<typeof Session>()),
  useAuthStatus: () => ({ hasToken: true, hasAuthenticators: false }),
}));

const INFO = {
  qr_id: 'q1',
  client_name: 'Encore web',
  device: 'Mozilla/5.0 (X11; Linux) TestBrowser/1.0',
  place: '203.0.113.7',
  numbers: [31, 58, 77],
  status: 'pending',
  expires_in: 100,
};

/** Answers GET token/qr/{id} with INFO and the approval with `approval`. */
function server(approval: { status: number; error: string | null }) {
  return vi.fn((url: string, init?: RequestInit) => {
    const approving = String(url).endsWith('/approve');
    const body = approving
      ? { success: approval.error === null, payload: null, error: approval.error }
      : { success: true, payload: INFO, error: null };
    return Promise.resolve(new Response(JSON.stringify(body), { status: approving ? approval.status : 200, headers: init?.headers }));
  });
}

function renderPage(): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/auth/qr?id=q1']}>
          <QrApprovePage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('QR approval page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the asking device and address, and approves only with a number and the password', async () => {
    const fetchMock = server({ status: 200, error: null });
    vi.stubGlobal('fetch', fetchMock);
    renderPage();
    expect(await screen.findByTestId('qr-device')).toHaveTextContent('TestBrowser/1.0');
    expect(screen.getByTestId('qr-place')).toHaveTextContent('203.0.113.7');
    for (const n of INFO.numbers) expect(screen.getByText(String(n))).toBeInTheDocument();
    const approve = screen.getByTestId('qr-approve');
    expect(approve).toBeDisabled();
    fireEvent.click(screen.getByText('58'));
    expect(approve).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Your current password'), { target: { value: 'a fine long passphrase' } });
    expect(approve).toBeEnabled();
    fireEvent.click(approve);
    expect(await screen.findByText('Sign-in approved')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/approve'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ number: 58, currentPassword: 'a fine long passphrase' });
  });

  it("shows the server's refusal of a wrong number", async () => {
    vi.stubGlobal('fetch', server({ status: 422, error: 'That is not the number shown on the other device.' }));
    renderPage();
    fireEvent.click(await screen.findByText('31'));
    fireEvent.change(screen.getByLabelText('Your current password'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('qr-approve'));
    await waitFor(() => {
      expect(screen.getByText('That is not the number shown on the other device.')).toBeInTheDocument();
    });
  });
});
