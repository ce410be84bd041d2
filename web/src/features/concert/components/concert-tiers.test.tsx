import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n, { setupI18n } from '../../../i18n';
import { aTier, encoreEvent } from '../../../test/fixtures';
import { renderPage } from '../../../test/render';
import { signedInForEachTest } from '../../../test/signed-in';
import type * as Session from '../../auth/session';
import { EventBuyButton } from '../../events/components/event-parts';
import { ConcertTiers, hasTierCards } from './concert-tiers';

const tier = aTier;

/** Whether the reader is signed in (a visitor unless a test says otherwise). */
const auth = vi.hoisted(() => ({ hasToken: false }));
vi.mock('../../auth/session', async (importOriginal) => ({
  ...(await importOriginal<typeof Session>()),
  useAuthStatus: () => ({ hasToken: auth.hasToken, hasAuthenticators: false }),
}));

/** The server: an empty cart, and every POST to the cart taken (and recorded). */
function server() {
  return vi.fn((_url: string, _init?: RequestInit) => {
    const body = { success: true, payload: [], error: null };
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  });
}

/** The cart additions the page sent: their path and query. */
const additions = (fetchMock: ReturnType<typeof server>): string[] =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([url]) => String(url).replace(/^.*\/api\/v1/, ''));

describe('Concert tiers', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('lists each tier with its price and whether it sells, when there is a choice', () => {
    const event = encoreEvent('e1', Date.now() + 3_600_000, {
      tiers: [
        tier('Standard', { isDefault: true }),
        tier('VIP — meet the band', { price: 5000, description: 'After the show.', seatsLeft: 0, soldOut: true, onSale: false, notOnSale: 'This ticket tier is sold out.' }),
        tier('Later', { onSale: false, notOnSale: 'Sales of this ticket tier have not opened yet.' }),
      ],
    });
    renderPage(<ConcertTiers event={event} />);
    const rows = screen.getAllByTestId('concert-tier');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('VIP — meet the band');
    expect(rows[1]).toHaveTextContent('€50.00');
    expect(rows[1]).toHaveTextContent('Sold out');
    expect(rows[2]).toHaveTextContent('Sales of this ticket tier have not opened yet.');
    // A visitor reads them; buying is for a signed-in fan.
    expect(screen.queryByTestId('tier-buy')).toBeNull();
  });

  it('shows a pay-what-you-want tier, even alone, from its minimum', () => {
    const event = encoreEvent('e1', Date.now() + 3_600_000, { tiers: [tier('Pay what you can', { isDefault: true, minimumPrice: 200 })] });
    renderPage(<ConcertTiers event={event} />);
    expect(screen.getByTestId('concert-tier')).toHaveTextContent('Pay what you want, from €2.00');
  });

  it('shows nothing for a concert of one tier: its own price and button say it all', () => {
    const event = encoreEvent('e1', Date.now() + 3_600_000, { tiers: [tier('Standard', { isDefault: true })] });
    renderPage(<ConcertTiers event={event} />);
    expect(screen.queryByTestId('concert-tiers')).toBeNull();
  });

  describe('a signed-in fan', () => {
    signedInForEachTest(auth);
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    const twoTiers = (supporter: Partial<Parameters<typeof tier>[1]> = {}) =>
      encoreEvent('e1', Date.now() + 3_600_000, {
        tiers: [tier('standard', { name: 'Standard', isDefault: true }), tier('supporter', { name: 'Supporter', price: 2500, ...supporter })],
      });

    it('adds as many tickets of a tier as its stepper says', async () => {
      const fetchMock = server();
      vi.stubGlobal('fetch', fetchMock);
      renderPage(<ConcertTiers event={twoTiers()} />);
      const supporter = screen.getAllByTestId('concert-tier')[1];
      if (!supporter) throw new Error('no Supporter row');
      const count = supporter.querySelector('[data-testid="tier-quantity"]');
      expect(count).toHaveTextContent('1');
      expect(supporter.querySelector('[data-testid="tier-quantity-minus"]')).toBeDisabled();
      const plus = supporter.querySelector<HTMLButtonElement>('[data-testid="tier-quantity-plus"]');
      if (!plus) throw new Error('no + button');
      fireEvent.click(plus);
      fireEvent.click(plus);
      expect(count).toHaveTextContent('3');
      // Not reached, not explained.
      expect(supporter.querySelector('[data-testid="tier-quantity-limit"]')).toBeNull();
      const buy = supporter.querySelector<HTMLButtonElement>('[data-testid="tier-buy"]');
      if (!buy) throw new Error('no Add to cart');
      fireEvent.click(buy);
      await waitFor(() => {
        expect(additions(fetchMock)).toEqual(['/cart/e1?tier=supporter&quantity=3']);
      });
    });

    it('stops at the seats left and says so', () => {
      vi.stubGlobal('fetch', server());
      renderPage(<ConcertTiers event={twoTiers({ seatsLeft: 2 })} />);
      const supporter = screen.getAllByTestId('concert-tier')[1];
      const plus = supporter?.querySelector<HTMLButtonElement>('[data-testid="tier-quantity-plus"]');
      if (!supporter || !plus) throw new Error('no Supporter stepper');
      fireEvent.click(plus);
      expect(plus).toBeDisabled();
      expect(supporter.querySelector('[data-testid="tier-quantity-limit"]')).toHaveTextContent('Only 2 tickets are left');
    });

    it('stops at ten, the most one order holds, and says so', () => {
      vi.stubGlobal('fetch', server());
      renderPage(<ConcertTiers event={twoTiers()} />);
      const supporter = screen.getAllByTestId('concert-tier')[1];
      const plus = supporter?.querySelector<HTMLButtonElement>('[data-testid="tier-quantity-plus"]');
      if (!supporter || !plus) throw new Error('no Supporter stepper');
      for (let i = 0; i < 12; i++) fireEvent.click(plus);
      expect(supporter.querySelector('[data-testid="tier-quantity"]')).toHaveTextContent('10');
      expect(plus).toBeDisabled();
      expect(supporter.querySelector('[data-testid="tier-quantity-limit"]')).toHaveTextContent('At most 10 tickets in one order');
    });

    it('reads Persian digits in Persian, the limit too', async () => {
      await act(() => i18n.changeLanguage('ir'));
      try {
        vi.stubGlobal('fetch', server());
        renderPage(<ConcertTiers event={twoTiers({ seatsLeft: 3 })} />);
        const supporter = screen.getAllByTestId('concert-tier')[1];
        const plus = supporter?.querySelector<HTMLButtonElement>('[data-testid="tier-quantity-plus"]');
        if (!supporter || !plus) throw new Error('no Supporter stepper');
        fireEvent.click(plus);
        fireEvent.click(plus);
        expect(supporter.querySelector('[data-testid="tier-quantity"]')).toHaveTextContent('۳');
        expect(supporter.querySelector('[data-testid="tier-quantity-limit"]')).toHaveTextContent('فقط ۳ بلیت باقی مانده است');
      } finally {
        await act(() => i18n.changeLanguage('gb'));
      }
    });
    it('with tier cards, the concert has no default-tier Add to cart of its own', async () => {
      vi.stubGlobal('fetch', server());
      expect(hasTierCards(twoTiers())).toBe(true);
      renderPage(<EventBuyButton event={twoTiers()} statusOnly={hasTierCards(twoTiers())} />);
      // The (empty) cart has loaded, and still no button.
      await waitFor(() => {
        expect(screen.queryByTestId('event-buy')).toBeNull();
      });
      renderPage(<EventBuyButton event={{ ...twoTiers(), owned: true }} statusOnly />);
      expect(screen.getByTestId('event-owned')).toBeInTheDocument();
      const single = encoreEvent('e2', Date.now() + 3_600_000, { tiers: [tier('Standard', { isDefault: true })] });
      expect(hasTierCards(single)).toBe(false);
      renderPage(<EventBuyButton event={single} statusOnly={hasTierCards(single)} />);
      expect(await screen.findByTestId('event-buy')).toBeInTheDocument();
    });
  });
});
