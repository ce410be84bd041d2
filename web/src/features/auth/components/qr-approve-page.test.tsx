import { fireEvent, screen, waitFor } from '@testing-library/react';
import { setupI18n } from '../../../i18n';
import { setTokenProvider } from '../../../lib/http';
import { renderPage } from '../../../test/render';
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

const renderApprovePage = (): void => void renderPage(<QrApprovePage />, '/auth/qr?id=q1');

describe('QR approval page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the asking device and its address', async () => {
    vi.stubGlobal('fetch', server({ status: 200, error: null }));
    renderApprovePage();
    expect(await screen.findByTestId('qr-device')).toHaveTextContent('TestBrowser/1.0');
    expect(screen.getByTestId('qr-place')).toHaveTextContent('203.0.113.7');
  });

  it('offers the numbers, one of which the other device shows', async () => {
    vi.stubGlobal('fetch', server({ status: 200, error: null }));
    renderApprovePage();
    await screen.findByTestId('qr-device');
    for (const n of INFO.numbers) expect(screen.getByText(String(n))).toBeInTheDocument();
  });

  it('approves only with a number and the password', async () => {
    const fetchMock = server({ status: 200, error: null });
    vi.stubGlobal('fetch', fetchMock);
    renderApprovePage();
    await screen.findByTestId('qr-device');
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
    renderApprovePage();
    fireEvent.click(await screen.findByText('31'));
    fireEvent.change(screen.getByLabelText('Your current password'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('qr-approve'));
    await waitFor(() => {
      expect(screen.getByText('That is not the number shown on the other device.')).toBeInTheDocument();
    });
  });
});
