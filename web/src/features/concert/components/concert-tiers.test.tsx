import { screen } from '@testing-library/react';
import { setupI18n } from '../../../i18n';
import { aTier, encoreEvent } from '../../../test/fixtures';
import { renderPage } from '../../../test/render';
import { ConcertTiers } from './concert-tiers';

const tier = aTier;

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
});
