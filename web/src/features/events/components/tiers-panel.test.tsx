import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n, { setupI18n } from '../../../i18n';
import { ApiError } from '../../../lib/errors';
import { localInputToIso } from '../model';
import type { ManagedTier } from '../model';
import { aManagedTier } from '../../../test/fixtures';
import { TiersPanel } from './tiers-panel';

const api = vi.hoisted(() => ({ listTiers: vi.fn(), createTier: vi.fn(), updateTier: vi.fn(), deleteTier: vi.fn() }));
vi.mock('../api', () => api);

const tier = (id: string, changes: Partial<ManagedTier> = {}) => aManagedTier(id, { price: 900, ...changes });

const TIERS = [
  tier('t1', { name: 'Standard', isDefault: true, seatsTaken: 12 }),
  tier('t2', { name: 'VIP', price: 4500, description: 'Meet the band after the show.', capacity: 20, seatsTaken: 3, position: 1 }),
  tier('t3', { name: 'Crew', price: 0, hidden: true, position: 2 }),
];

function panel(capacity: number | null = 200) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <TiersPanel event={{ id: 'e1', currency: 'EUR', capacity }} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const rowOf = (name: string): HTMLElement => {
  const row = screen.getAllByTestId('tier-row').find((el) => within(el).getByTestId('tier-row-name').textContent === name);
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};

describe('a concert’s ticket tiers', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    // The description grows with its text (Mantine's autosize listens to the page's fonts,
    // which jsdom lacks).
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { ready: Promise.resolve(), addEventListener: () => undefined, removeEventListener: () => undefined },
    });
  });
  afterAll(() => {
    Reflect.deleteProperty(document, 'fonts');
  });
  beforeEach(() => {
    api.listTiers.mockReset().mockResolvedValue(TIERS);
    api.createTier.mockReset();
    api.updateTier.mockReset();
    api.deleteTier.mockReset();
  });

  it('lists every tier, the default and the hidden ones marked, with price, seats and sale window', async () => {
    panel();
    const rows = await screen.findAllByTestId('tier-row');
    expect(rows.map((row) => within(row).getByTestId('tier-row-name').textContent)).toEqual(['Standard', 'VIP', 'Crew']);
    expect(screen.getByTestId('tiers-count')).toHaveTextContent('3 of 20 tiers');
    const standard = rowOf('Standard');
    expect(within(standard).getByTestId('tier-default-badge')).toHaveTextContent('Default');
    expect(within(standard).getByTestId('tier-seats')).toHaveTextContent('Seats taken: 12 (no limit of its own)');
    // The default tier stays: no delete offered.
    expect(within(standard).queryByTestId('tier-delete')).toBeNull();
    const vip = rowOf('VIP');
    expect(within(vip).getByTestId('tier-row-price')).toHaveTextContent('€45.00');
    expect(vip).toHaveTextContent('Meet the band after the show.');
    expect(within(vip).getByTestId('tier-seats')).toHaveTextContent('Seats taken: 3 of 20');
    expect(within(vip).getByTestId('tier-window')).toHaveTextContent('On sale with the concert');
    expect(within(rowOf('Crew')).getByTestId('tier-hidden-badge')).toHaveTextContent('Hidden');
    expect(within(vip).queryByTestId('tier-hidden-badge')).toBeNull();
  });

  it('writes its numbers in the reader’s digits', async () => {
    await act(() => i18n.changeLanguage('ir'));
    try {
      panel();
      const vip = await screen.findByText('VIP');
      const row = vip.closest('[data-testid="tier-row"]') as HTMLElement;
      expect(within(row).getByTestId('tier-seats')).toHaveTextContent('۳ از ۲۰');
      expect(within(row).getByTestId('tier-row-price').textContent).toMatch(/۴۵/);
      expect(screen.getByTestId('tiers-count')).toHaveTextContent('۳ از ۲۰ رده');
      // The edit form starts with the price in the same digits, and saves what it shows.
      api.updateTier.mockResolvedValue(TIERS[1]);
      await userEvent.click(within(row).getByTestId('tier-edit'));
      const form = screen.getByTestId('tier-form');
      expect(within(form).getByTestId('tier-price')).toHaveValue('۴۵٫۰۰');
      await userEvent.click(within(form).getByTestId('tier-save'));
      await waitFor(() => {
        expect(api.updateTier).toHaveBeenCalledWith('e1', 't2', expect.objectContaining({ price: 4500 }));
      });
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });

  it('adds a tier with its description, price in minor units, seats, sale window and hidden', async () => {
    panel();
    await screen.findAllByTestId('tier-row');
    api.createTier.mockResolvedValue(tier('t4', { name: 'Supporter', price: 1550 }));
    await userEvent.click(screen.getByTestId('tier-add'));
    const form = screen.getByTestId('tier-form');
    await userEvent.type(within(form).getByTestId('tier-name'), 'Supporter');
    await userEvent.type(within(form).getByTestId('tier-description'), 'Pay a little more, help the band.');
    await userEvent.type(within(form).getByTestId('tier-price'), '15.5');
    await userEvent.type(within(form).getByTestId('tier-capacity'), '50');
    fireEvent.change(within(form).getByTestId('tier-opens'), { target: { value: '2026-12-01T10:00' } });
    fireEvent.change(within(form).getByTestId('tier-closes'), { target: { value: '2026-12-05T18:30' } });
    await userEvent.click(within(form).getByTestId('tier-hidden'));
    await userEvent.click(within(form).getByTestId('tier-save'));
    await waitFor(() => {
      expect(api.createTier).toHaveBeenCalledWith('e1', {
        name: 'Supporter',
        description: 'Pay a little more, help the band.',
        price: 1550,
        minimumPrice: null,
        capacity: 50,
        saleOpensAt: localInputToIso('2026-12-01T10:00'),
        saleClosesAt: localInputToIso('2026-12-05T18:30'),
        hidden: true,
        isDefault: false,
      });
    });
    // Saved: the form closes and the list is asked again.
    await waitFor(() => {
      expect(screen.queryByTestId('tier-form')).toBeNull();
    });
    expect(api.listTiers.mock.calls.length).toBeGreaterThan(1);
  });

  it('adds a pay-what-you-want tier: its suggested price and its minimum in minor units, the minimum never above the price', async () => {
    panel();
    await screen.findAllByTestId('tier-row');
    api.createTier.mockResolvedValue(tier('t5', { name: 'As you like', price: 1000, minimumPrice: 0 }));
    await userEvent.click(screen.getByTestId('tier-add'));
    const form = screen.getByTestId('tier-form');
    await userEvent.type(within(form).getByTestId('tier-name'), 'As you like');
    expect(within(form).queryByTestId('tier-minimum')).toBeNull();
    await userEvent.click(within(form).getByTestId('tier-pwyw'));
    expect(within(form).getByText('Suggested price')).toBeInTheDocument();
    await userEvent.type(within(form).getByTestId('tier-price'), '10');
    await userEvent.type(within(form).getByTestId('tier-minimum'), '12');
    await userEvent.click(within(form).getByTestId('tier-save'));
    expect(await within(form).findByText('At most the suggested price')).toBeInTheDocument();
    expect(api.createTier).not.toHaveBeenCalled();
    await userEvent.clear(within(form).getByTestId('tier-minimum'));
    await userEvent.type(within(form).getByTestId('tier-minimum'), '0');
    await userEvent.click(within(form).getByTestId('tier-save'));
    await waitFor(() => {
      expect(api.createTier).toHaveBeenCalledWith('e1', expect.objectContaining({ name: 'As you like', price: 1000, minimumPrice: 0 }));
    });
  });

  it('refuses a capacity above the concert’s and a window closing before it opens, before asking the server', async () => {
    panel(100);
    await screen.findAllByTestId('tier-row');
    await userEvent.click(screen.getByTestId('tier-add'));
    const form = screen.getByTestId('tier-form');
    await userEvent.type(within(form).getByTestId('tier-name'), 'Big');
    await userEvent.type(within(form).getByTestId('tier-price'), '10');
    await userEvent.type(within(form).getByTestId('tier-capacity'), '150');
    fireEvent.change(within(form).getByTestId('tier-opens'), { target: { value: '2026-12-05T10:00' } });
    fireEvent.change(within(form).getByTestId('tier-closes'), { target: { value: '2026-12-01T10:00' } });
    await userEvent.click(within(form).getByTestId('tier-save'));
    expect(await within(form).findByText('At most the concert’s 100 seats')).toBeInTheDocument();
    expect(within(form).getByText('Sales must close after they open')).toBeInTheDocument();
    expect(api.createTier).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal in the form and keeps what was typed', async () => {
    panel();
    await screen.findAllByTestId('tier-row');
    api.createTier.mockRejectedValue(new ApiError('A concert sells through at most 20 ticket tiers.', 409));
    await userEvent.click(screen.getByTestId('tier-add'));
    const form = screen.getByTestId('tier-form');
    await userEvent.type(within(form).getByTestId('tier-name'), 'One more');
    await userEvent.type(within(form).getByTestId('tier-price'), '5');
    await userEvent.click(within(form).getByTestId('tier-save'));
    expect(await within(form).findByTestId('tier-form-error')).toHaveTextContent('A concert sells through at most 20 ticket tiers.');
    expect(within(form).getByTestId('tier-name')).toHaveValue('One more');
    // Closed and opened again: the old refusal is gone.
    await userEvent.click(within(form).getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByTestId('tier-add'));
    expect(screen.queryByTestId('tier-form-error')).toBeNull();
  });

  it('edits a tier: its values filled in, the default kept, a sold tier’s price frozen', async () => {
    panel();
    await screen.findAllByTestId('tier-row');
    // The default tier: always the default, never hidden.
    await userEvent.click(within(rowOf('Standard')).getByTestId('tier-edit'));
    let form = screen.getByTestId('tier-form');
    expect(within(form).getByTestId('tier-default')).toBeChecked();
    expect(within(form).getByTestId('tier-default')).toBeDisabled();
    expect(within(form).getByTestId('tier-hidden')).toBeDisabled();
    // Seats taken: its price is frozen.
    expect(within(form).getByTestId('tier-price')).toBeDisabled();
    await userEvent.click(within(form).getByRole('button', { name: 'Close' }));

    api.updateTier.mockResolvedValue(tier('t3', { name: 'Crew & friends', price: 500, isDefault: true }));
    await userEvent.click(within(rowOf('Crew')).getByTestId('tier-edit'));
    form = screen.getByTestId('tier-form');
    expect(within(form).getByTestId('tier-name')).toHaveValue('Crew');
    expect(within(form).getByTestId('tier-hidden')).toBeChecked();
    await userEvent.type(within(form).getByTestId('tier-name'), ' & friends');
    await userEvent.clear(within(form).getByTestId('tier-price'));
    await userEvent.type(within(form).getByTestId('tier-price'), '5');
    // Made the default: it cannot stay hidden.
    await userEvent.click(within(form).getByTestId('tier-default'));
    expect(within(form).getByTestId('tier-hidden')).not.toBeChecked();
    await userEvent.click(within(form).getByTestId('tier-save'));
    await waitFor(() => {
      expect(api.updateTier).toHaveBeenCalledWith('e1', 't3', {
        name: 'Crew & friends',
        description: '',
        price: 500,
        minimumPrice: null,
        capacity: null,
        saleOpensAt: null,
        saleClosesAt: null,
        hidden: false,
        isDefault: true,
      });
    });
  });

  it('deletes a tier only once confirmed', async () => {
    panel();
    await screen.findAllByTestId('tier-row');
    api.deleteTier.mockResolvedValue(null);
    await userEvent.click(within(rowOf('Crew')).getByTestId('tier-delete'));
    expect(api.deleteTier).not.toHaveBeenCalled();
    expect(await screen.findByText('“Crew” will no longer be sold, and it leaves every cart it is in.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('tier-delete-confirm'));
    expect(api.deleteTier).toHaveBeenCalledWith('e1', 't3');
  });
});
