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
  paidByStripe: 0,
  owed: 810,
};
const OPERATOR = { currency: 'EUR', passSales: 1200, passRefunds: 0, passPaymentFees: 0, unsharedPasses: 0, platformFees: 90 };

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const ok = (payload: unknown): Response => new Response(JSON.stringify({ success: true, payload, error: null }), { status: 200 });

const PAYOUT = { id: 'po1', projectId: 'p1', period: NOW, currency: 'EUR', amount: 500, reference: 'TR-1', createdAt: '2026-11-20T10:00:00Z' };
/** The statement once `PAYOUT` was recorded against it. */
const PAID = { ...STATEMENT, paidOut: 500, owed: 310 };

interface Serving {
  /** Answers PUT platform-fee. */
  fee?: (body: { percent: string | null }) => Response;
  /** Answers POST payouts. */
  payout?: (body: unknown) => Response;
  /** The statement and payouts of `NOW` (by default `STATEMENT` and none), read at each call. */
  month?: () => { statement: typeof STATEMENT; payouts: (typeof PAYOUT)[] };
  /** How the project gets paid (by default: Connect off, bank details). */
  connect?: { connect: boolean; account: { id: string; chargesEnabled: boolean; payoutsEnabled: boolean; detailsSubmitted: boolean } | null };
  /** Answers PUT bank-details. */
  bank?: (body: unknown) => Response;
}

const NO_BANK = { projectId: 'p1', accountHolder: '', accountNumber: '', accountNumberUnavailable: false, note: '', updatedAt: null };

/** The API as the page calls it: the reader (`role`), one project, its statement in `NOW`
 * (nothing in other months). Returns the calls made. */
function serve(role: 'user' | 'admin', { fee, payout, month = () => ({ statement: STATEMENT, payouts: [] }), connect = { connect: false, account: null }, bank }: Serving = {}): Call[] {
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
      if (own) {
        const { statement, payouts } = month();
        return Promise.resolve(ok({ period: own[1], projectId: 'p1', statements: own[1] === NOW ? [statement] : [], payouts: own[1] === NOW ? payouts : [] }));
      }
      if (path.endsWith('/export.csv')) return Promise.resolve(new Response('period,project\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }));
      const all = /^\/api\/v1\/statements\/(\d{4}-\d{2})$/.exec(path);
      if (all) return Promise.resolve(ok({ period: all[1], statements: [STATEMENT], operator: [OPERATOR] }));
      if (path === '/api/v1/projects/p1/platform-fee' && fee) return Promise.resolve(fee(body as { percent: string | null }));
      if (path === '/api/v1/projects/p1/payouts' && method === 'POST' && payout) return Promise.resolve(payout(body));
      if (path === '/api/v1/projects/p1/payout-account' && method === 'GET') return Promise.resolve(ok({ projectId: 'p1', ...connect }));
      if (path === '/api/v1/projects/p1/bank-details' && method === 'GET') return Promise.resolve(ok(NO_BANK));
      if (path === '/api/v1/projects/p1/bank-details' && method === 'PUT' && bank) return Promise.resolve(bank(body));
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
    expect(screen.queryByTestId('payout-open')).toBeNull();
    // No payouts yet: no list, no paid-out lines.
    expect(screen.queryByTestId('payouts')).toBeNull();
    expect(within(card).queryByTestId('statement-owed')).toBeNull();
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

  it('lets staff record a payout: prefilled with what is owed, posted in minor units with the reference, the statements read again', async () => {
    let recorded = false;
    const calls = serve('admin', {
      payout: () => {
        recorded = true;
        return new Response(JSON.stringify({ success: true, payload: PAYOUT, error: null }), { status: 201 });
      },
      month: () => (recorded ? { statement: PAID, payouts: [PAYOUT] } : { statement: STATEMENT, payouts: [] }),
    });
    renderPage(<StatementsPage />, '/statements');
    const card = await screen.findByTestId('statement-card');
    expect(screen.queryByTestId('payouts')).toBeNull();
    await userEvent.click(within(card).getByTestId('payout-open'));
    const form = within(card).getByTestId('payout-form');
    expect(within(form).getByTestId('payout-amount')).toHaveValue('8.10');
    expect(form).toHaveTextContent('Still owed: €8.10');
    await userEvent.clear(within(form).getByTestId('payout-amount'));
    await userEvent.type(within(form).getByTestId('payout-amount'), '5');
    await userEvent.type(within(form).getByTestId('payout-reference'), ' TR-1 ');
    const before = calls.filter((call) => call.path.startsWith('/api/v1/projects/p1/statements/')).length;
    await userEvent.click(within(form).getByTestId('payout-save'));

    await waitFor(() => {
      expect(within(card).getByTestId('statement-owed')).toHaveTextContent('€3.10');
    });
    expect(calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', path: '/api/v1/projects/p1/payouts', body: { period: NOW, currency: 'EUR', amount: 500, reference: 'TR-1' } });
    expect(calls.filter((call) => call.path.startsWith('/api/v1/projects/p1/statements/')).length).toBeGreaterThan(before);
    expect(within(card).getByTestId('statement-paidOut-line')).toHaveTextContent('Paid out');
    expect(within(card).getByTestId('statement-paidOut')).toHaveTextContent('-€5.00');
    expect(within(card).getByTestId('statement-owed-line')).toHaveTextContent('Still owed');
    // The form closed; still something owed, so the action is back.
    expect(within(card).queryByTestId('payout-form')).toBeNull();
    expect(within(card).getByTestId('payout-open')).toBeInTheDocument();
    const payouts = screen.getByTestId('payouts');
    expect(within(payouts).getByTestId('payout-amount-text')).toHaveTextContent('€5.00');
    expect(within(payouts).getByTestId('payout-reference-text')).toHaveTextContent('TR-1');
  });

  it('shows the server\'s 409 in the form as it wrote it, what was typed kept', async () => {
    const refusal = 'Only €8.10 is still owed on the statement of 2026-11; €9.00 is more.';
    const calls = serve('admin', { payout: () => new Response(JSON.stringify({ success: false, payload: null, error: refusal }), { status: 409 }) });
    renderPage(<StatementsPage />, '/statements');
    const card = await screen.findByTestId('statement-card');
    await userEvent.click(within(card).getByTestId('payout-open'));
    const form = within(card).getByTestId('payout-form');
    await userEvent.clear(within(form).getByTestId('payout-amount'));
    await userEvent.type(within(form).getByTestId('payout-amount'), '9');
    await userEvent.type(within(form).getByTestId('payout-reference'), 'TR-2');
    await userEvent.click(within(form).getByTestId('payout-save'));
    expect(await within(form).findByTestId('payout-error')).toHaveTextContent(refusal);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ period: NOW, currency: 'EUR', amount: 900, reference: 'TR-2' });
    expect(within(form).getByTestId('payout-amount')).toHaveValue('9');
    expect(within(form).getByTestId('payout-reference')).toHaveValue('TR-2');
    // Cancelled and opened again: the refusal is gone, what is owed typed in again.
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(card).getByTestId('payout-open'));
    expect(within(card).queryByTestId('payout-error')).toBeNull();
    expect(within(card).getByTestId('payout-amount')).toHaveValue('8.10');
  });

  it('shows members the month\'s payouts, what was paid out and what is still owed, but no form', async () => {
    serve('user', { month: () => ({ statement: PAID, payouts: [PAYOUT] }) });
    renderPage(<StatementsPage />, '/statements');
    const card = await screen.findByTestId('statement-card');
    expect(within(card).getByTestId('statement-paidOut')).toHaveTextContent('-€5.00');
    expect(within(card).getByTestId('statement-owed')).toHaveTextContent('€3.10');
    const payouts = await screen.findByTestId('payouts');
    const row = within(payouts).getByTestId('payout');
    expect(row).toHaveAttribute('data-currency', 'EUR');
    expect(within(row).getByTestId('payout-date')).toHaveTextContent('20 November 2026');
    expect(within(row).getByTestId('payout-amount-text')).toHaveTextContent('€5.00');
    expect(within(row).getByTestId('payout-reference-text')).toHaveTextContent('Reference: \u2068TR-1\u2069');
    expect(screen.queryByTestId('payout-open')).toBeNull();
    expect(screen.queryByTestId('payout-form')).toBeNull();
  });

  it('hides the payout action from staff once nothing is owed', async () => {
    serve('admin', { month: () => ({ statement: { ...STATEMENT, paidOut: 810, owed: 0 }, payouts: [{ ...PAYOUT, amount: 810, reference: '' }] }) });
    renderPage(<StatementsPage />, '/statements');
    const card = await screen.findByTestId('statement-card');
    expect(within(card).getByTestId('statement-owed')).toHaveTextContent(/^€0\.00$/);
    await screen.findByTestId('platform-fee');
    expect(screen.queryByTestId('payout-open')).toBeNull();
    const payouts = screen.getByTestId('payouts');
    expect(within(payouts).queryByTestId('payout-reference-text')).toBeNull();
  });

  it('writes amounts, the percentage and the month in Persian digits', async () => {
    await act(() => i18n.changeLanguage('ir'));
    try {
      serve('user', { month: () => ({ statement: PAID, payouts: [{ ...PAYOUT, reference: 'حواله' }] }) });
      renderPage(<StatementsPage />, '/statements');
      const card = await screen.findByTestId('statement-card');
      expect(card.textContent).toMatch(/[۰-۹]/);
      expect(card.textContent).not.toMatch(/[0-9]/);
      const payouts = screen.getByTestId('payouts');
      expect(payouts.textContent).toMatch(/[۰-۹]/);
      expect(payouts.textContent).not.toMatch(/[0-9]/);
      expect(screen.getByTestId('statements-month').textContent).not.toMatch(/[0-9]/);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });

  it('lets a member keep the project\'s bank details when Stripe Connect is off', async () => {
    const saved = { ...NO_BANK, accountHolder: 'Ada Band', accountNumber: '•••• 3000', note: 'BIC X', updatedAt: '2026-11-20T10:00:00Z' };
    const calls = serve('user', { bank: () => ok(saved) });
    renderPage(<StatementsPage />, '/statements');
    const form = await screen.findByTestId('bank-details');
    expect(screen.queryByTestId('get-paid-onboard')).toBeNull();
    await userEvent.type(within(form).getByTestId('bank-holder'), 'Ada Band');
    await userEvent.type(within(form).getByTestId('bank-number'), 'DE89 3704 0044 0532 0130 00');
    await userEvent.type(within(form).getByTestId('bank-note'), 'BIC X');
    await userEvent.click(within(form).getByTestId('bank-save'));
    await waitFor(() => { expect(screen.getByTestId('bank-number')).toHaveValue('•••• 3000'); });
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ accountHolder: 'Ada Band', accountNumber: 'DE89 3704 0044 0532 0130 00', note: 'BIC X' });
  });

  it('shows the Stripe account\'s state: connect, continue onboarding, connected', async () => {
    serve('user', { connect: { connect: true, account: null } });
    const first = renderPage(<StatementsPage />, '/statements');
    expect(await screen.findByTestId('get-paid-onboard')).toHaveTextContent('Connect with Stripe');
    expect(screen.getByTestId('get-paid-connect')).toHaveAttribute('data-state', 'none');
    expect(screen.queryByTestId('bank-details')).toBeNull();
    first.unmount();
    vi.unstubAllGlobals();

    serve('user', { connect: { connect: true, account: { id: 'acct_1', chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false } } });
    const second = renderPage(<StatementsPage />, '/statements');
    expect(await screen.findByTestId('get-paid-onboard')).toHaveTextContent('Continue onboarding');
    expect(screen.getByTestId('get-paid-details')).toHaveTextContent('Details missing');
    second.unmount();
    vi.unstubAllGlobals();

    serve('user', { connect: { connect: true, account: { id: 'acct_1', chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true } } });
    renderPage(<StatementsPage />, '/statements');
    await waitFor(() => { expect(screen.getByTestId('get-paid-connect')).toHaveAttribute('data-state', 'connected'); });
    expect(screen.getByTestId('get-paid-charges')).toHaveTextContent('Takes payments');
    expect(screen.queryByTestId('get-paid-onboard')).toBeNull();
  });
});
