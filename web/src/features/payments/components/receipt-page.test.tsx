import { act, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import { setTokenProvider } from '../../../lib/http';
import { renderPage } from '../../../test/render';
import { ReceiptPage } from './receipt-page';

const RECEIPT = {
  order: {
    id: 'order-1234-5678',
    accountId: 'a1',
    status: 'refunded',
    total: 1500,
    currency: 'EUR',
    provider: 'stripe',
    failure: null,
    createdAt: '2026-01-02T10:00:00Z',
    expiresAt: '2026-01-02T10:15:00Z',
    paidAt: '2026-01-02T10:01:00Z',
    refundedAt: '2026-01-03T09:00:00Z',
    items: [{ itemKind: 'event', itemId: 'e1', title: 'The Testers — Opening Night', price: 1500 }],
    buyer: { name: 'Ana Lima', email: 'ana@example.com' },
  },
  seller: { name: 'Encore Live Ltd', email: 'billing@encore.test', address: '1 Stage Road', city: 'London', country: 'GB', company: '' },
  refunds: [{ amount: 1500, reason: 'the band is ill', createdAt: '2026-01-03T09:00:00Z' }],
  refunded: 1500,
};

function renderReceipt(receipt: unknown = RECEIPT): void {
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(JSON.stringify({ success: true, payload: receipt, error: null }), { status: 200 }))));
  renderPage(
    <Routes>
      <Route path="/receipts/:orderId" element={<ReceiptPage />} />
    </Routes>,
    '/receipts/order-1234-5678',
  );
}

describe('Receipt page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('names the seller, the buyer, the order number, the method and the total', async () => {
    renderReceipt();
    expect(await screen.findByTestId('receipt-number')).toHaveTextContent(/^Order number order-1234-5678$/);
    // An id, read left to right in every language.
    expect(screen.getByTestId('receipt-id')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByText('Encore Live Ltd')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-buyer')).toHaveTextContent('ana@example.com');
    expect(screen.getByText('Card (Stripe)')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-total')).toHaveTextContent('€15.00');
  });

  it('names what a tip went to: its artist and concert, with its amount', async () => {
    renderReceipt({
      ...RECEIPT,
      order: { ...RECEIPT.order, status: 'fulfilled', refundedAt: null, total: 500, items: [], tip: { eventId: 'e1', title: 'Opening Night', artistName: 'The Testers' } },
      refunds: [],
      refunded: 0,
    });
    const tip = await screen.findByTestId('receipt-tip');
    expect(tip).toHaveTextContent('Tip to The Testers for Opening Night');
    expect(tip).toHaveTextContent('€5.00');
  });

  it('shows the refund and that the tickets no longer play', async () => {
    renderReceipt();
    expect(await screen.findByText('the band is ill')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-status')).toHaveTextContent('Refunded');
    expect(screen.getByTestId('receipt-refunded')).toHaveTextContent('no longer play');
  });

  it('shows no receipt for an order never paid, in the server\'s words', async () => {
    const unpaid = 'This order was never paid, so it has no receipt: nothing was charged.';
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(JSON.stringify({ success: false, payload: null, error: unpaid }), { status: 409 }))));
    renderPage(
      <Routes>
        <Route path="/receipts/:orderId" element={<ReceiptPage />} />
      </Routes>,
      '/receipts/order-1234-5678',
    );
    expect(await screen.findByTestId('receipt-unpaid')).toHaveTextContent(unpaid);
    expect(screen.queryByTestId('receipt')).toBeNull();
    expect(screen.queryByText('Total paid')).toBeNull();
  });

  it('keeps its buttons out of the printed page', async () => {
    renderReceipt();
    const print = await screen.findByTestId('receipt-print');
    expect(print.closest('[data-print="hide"]')).not.toBeNull();
    expect(print.closest('.encore-receipt')).toBeNull();
  });

  it('writes its dates as Intl does in English', async () => {
    renderReceipt();
    const when = new Date(RECEIPT.order.refundedAt).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short' });
    expect(await screen.findByTestId('receipt-refunded')).toHaveTextContent(when);
  });

  it('writes its dates in Persian with Persian digits and no Latin comma', async () => {
    await act(() => i18n.changeLanguage('ir'));
    try {
      renderReceipt();
      const refunded = (await screen.findByTestId('receipt-refunded')).textContent;
      expect(refunded).toMatch(/[۰-۹]/);
      expect(refunded).not.toMatch(/[,0-9]/);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });
});
