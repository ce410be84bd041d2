import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n, { setupI18n } from '../../../i18n';
import { setTokenProvider } from '../../../lib/http';
import { account } from '../../../test/fixtures';
import { renderPage } from '../../../test/render';
import { currentPeriod, shiftPeriod } from '../model';
import { StatementsPage } from './statements-page';

const NOW = currentPeriod();
const PROJECT = { id: 'p1', name: 'Harbour Lights band', description: '', status: 'active', createdAt: '2026-11-01T00:00:00Z', members: [], eventCount: 1, image: null, thumbnail: null };
const STATEMENT = {
  projectId: 'p1',
  currency: 'EUR',
  ticketSales: 1800,
  passShares: 0,
  refunds: 900,
  paymentFees: 0,
  platformFeePercent: '10',
  platformFee: 90,
  net: 810,
  paidOut: 0,
  owed: 810,
};
const OPERATOR = { currency: 'EUR', passSales: 1200, passRefunds: 0, passPaymentFees: 0, unsharedPasses: 0, platformFees: 90 };

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const ok = (payload: unknown): Response => new Response(JSON.stringify({ success: true, payload, error: null }), { status: 200 });

/** The API as the page calls it: the reader (`role`), one project, its statement in `NOW`
 * (nothing in other months); `fee` answers PUT platform-fee. Returns the calls made. */
function serve(role: 'user' | 'admin', { fee }: { fee?: (body: { percent: string | null }) => Response } = {}): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname, body });
      const path = url.pathname;
      if (path === '/api/v1/accounts/userinfo/me') return Promise.resolve(ok([account({ roles: [role], projects: [{ id: 'p1', name: PROJECT.name }] })]));
      if (path === '/api/v1/projects') return Promise.resolve(ok({ items: [PROJECT], total: 1, page: 1, pageSize: 100 }));
      const own = /^\/api\/v1\/projects\/p1\/statements\/(\d{4}-\d{2})$/.exec(path);
      if (own) return Promise.resolve(ok({ period: own[1], projectId: 'p1', statements: own[1] === NOW ? [STATEMENT] : [], payouts: [] }));
      if (path.endsWith('/export.csv')) return Promise.resolve(new Response('period,project\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }));
      const all = /^\/api\/v1\/statements\/(\d{4}-\d{2})$/.exec(path);
      if (all) return Promise.resolve(ok({ period: all[1], statements: [STATEMENT], operator: [OPERATOR] }));
      if (path === '/api/v1/projects/p1/platform-fee' && fee) return Promise.resolve(fee(body as { percent: string | null }));
      return Promise.resolve(new Response(JSON.stringify({ success: false, payload: null, error: 'Not found' }), { status: 404 }));
    }),
  );
  return calls;
}

describe('Statements page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows an artist this month\'s statement of their project, line by line, the net in bold', async () => {
    serve('user');
    renderPage(<StatementsPage />, '/statements');
    const card = await screen.findByTestId('statement-card');
    expect(card).toHaveAttribute('data-currency', 'EUR');
    expect(within(card).getByTestId('statement-ticketSales')).toHaveTextContent('€18.00');
    expect(within(card).getByTestId('statement-refunds')).toHaveTextContent('-€9.00');
    expect(within(card).getByTestId('statement-paymentFees')).toHaveTextContent(/^€0\.00$/);
    expect(within(card).getByTestId('statement-platformFee-line')).toHaveTextContent('Platform fee (10%)');
    expect(within(card).getByTestId('statement-platformFee')).toHaveTextContent('-€0.90');
    expect(within(card).getByTestId('statement-net')).toHaveTextContent('€8.10');
    expect(within(card).getByTestId('statement-net-line')).toHaveTextContent('Net due');
    expect(screen.getByTestId('statements-month')).toHaveAttribute('data-period', NOW);
    // No staff parts for an artist.
    expect(screen.queryByTestId('platform-fee')).toBeNull();
    expect(screen.queryByTestId('statements-operator')).toBeNull();
  });

  it('says so when the month had nothing, and never goes past the current month', async () => {
    serve('user');
    renderPage(<StatementsPage />, '/statements');
    await screen.findByTestId('statement-card');
    expect(screen.getByTestId('statements-month-next')).toBeDisabled();
    await userEvent.click(screen.getByTestId('statements-month-previous'));
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('Nothing this month');
    expect(screen.getByTestId('statements-month')).toHaveAttribute('data-period', shiftPeriod(NOW, -1));
    expect(screen.queryByTestId('statement-card')).toBeNull();
  });

  it('downloads the CSV with the bearer token and saves it', async () => {
    const calls = serve('user');
    // jsdom has no object URLs: given for this test, taken back after it.
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:statement');
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderPage(<StatementsPage />, '/statements');
      await screen.findByTestId('statement-card');
      await userEvent.click(screen.getByTestId('statements-download'));
      await waitFor(() => {
        expect(clicked).toHaveBeenCalled();
      });
      expect(calls.some((call) => call.path === `/api/v1/projects/p1/statements/${NOW}/export.csv`)).toBe(true);
      const fetchMock = vi.mocked(fetch);
      const exportCall = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/export.csv'));
      expect((exportCall?.[1]?.headers as Record<string, string>).Authorization).toBe('Bearer access-token');
      const link = clicked.mock.instances[0] as unknown as HTMLAnchorElement;
      expect(link.download).toBe(`encore-statement-${NOW}-p1.csv`);
    } finally {
      clicked.mockRestore();
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  it('prints with window.print, the pickers and buttons left out', async () => {
    serve('user');
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderPage(<StatementsPage />, '/statements');
    await screen.findByTestId('statement-card');
    await userEvent.click(screen.getByTestId('statements-print'));
    expect(print).toHaveBeenCalledOnce();
    expect(screen.getByTestId('statements-print').closest('[data-print="hide"]')).not.toBeNull();
    expect(screen.getByTestId('statements-month-picker').closest('[data-print="hide"]')).not.toBeNull();
    expect(screen.getByTestId('statement-card').closest('.encore-statements')).not.toBeNull();
    expect(screen.getByTestId('statements-printed-title')).toHaveTextContent(PROJECT.name);
  });

  it('shows staff the operator\'s lines and sets a project\'s fee, reading the statements again', async () => {
    const calls = serve('admin', { fee: ({ percent }) => ok({ projectId: 'p1', own: percent, applies: percent ?? '0' }) });
    renderPage(<StatementsPage />, '/statements');
    const operator = await screen.findByTestId('operator-card');
    expect(within(operator).getByTestId('operator-passSales')).toHaveTextContent('€12.00');
    expect(within(operator).getByTestId('operator-platformFees')).toHaveTextContent('€0.90');
    expect(screen.getByTestId('platform-fee-current')).toHaveTextContent('This month\'s statements take 10%.');

    const before = calls.filter((call) => call.path.startsWith('/api/v1/projects/p1/statements/')).length;
    await userEvent.type(screen.getByTestId('platform-fee-input'), '12.5');
    await userEvent.click(screen.getByTestId('platform-fee-save'));
    await waitFor(() => {
      expect(screen.getByTestId('platform-fee-current')).toHaveTextContent('Its own fee: 12.5%.');
    });
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ percent: '12.5' });
    await waitFor(() => {
      expect(calls.filter((call) => call.path.startsWith('/api/v1/projects/p1/statements/')).length).toBeGreaterThan(before);
    });

    await userEvent.click(screen.getByTestId('platform-fee-clear'));
    await waitFor(() => {
      expect(screen.getByTestId('platform-fee-current')).toHaveTextContent('The operator\'s fee applies: 0%.');
    });
    expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toEqual({ percent: null });
  });

  it('shows the server\'s refusal of a percentage as it wrote it', async () => {
    const refusal = 'A platform fee is a percentage from 0 to 100 with at most two decimals, such as 7.5.';
    serve('admin', { fee: () => new Response(JSON.stringify({ success: false, payload: null, error: refusal }), { status: 422 }) });
    renderPage(<StatementsPage />, '/statements');
    await screen.findByTestId('platform-fee');
    await userEvent.type(screen.getByTestId('platform-fee-input'), '150');
    await userEvent.click(screen.getByTestId('platform-fee-save'));
    expect(await screen.findByTestId('platform-fee-error')).toHaveTextContent(refusal);
  });

  it('writes amounts, the percentage and the month in Persian digits', async () => {
    await act(() => i18n.changeLanguage('ir'));
    try {
      serve('user');
      renderPage(<StatementsPage />, '/statements');
      const card = await screen.findByTestId('statement-card');
      expect(card.textContent).toMatch(/[۰-۹]/);
      expect(card.textContent).not.toMatch(/[0-9]/);
      expect(screen.getByTestId('statements-month').textContent).not.toMatch(/[0-9]/);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });
});
