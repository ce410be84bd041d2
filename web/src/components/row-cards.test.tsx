import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { RowCard, RowCards, RowTable } from './row-cards';
import type { RowColumn } from './row-cards';

describe("a table's row as a card", () => {
  it('keeps the row’s test id, names each value by its column, and keeps the value’s test id and the actions', () => {
    render(
      <MantineProvider>
        <RowCards testId="things-table">
          <RowCard
            testId="thing-row"
            heading="Harbour Lights"
            aside={<span>On sale</span>}
            fields={[
              { label: 'Price', value: '€9.00' },
              { label: 'Tickets sold', value: '2 / 100', testId: 'tickets-sold' },
            ]}
            actions={<button type="button">Sales</button>}
          />
        </RowCards>
      </MantineProvider>,
    );
    const card = within(screen.getByTestId('things-table')).getByTestId('thing-row');
    expect(card).toHaveTextContent('Harbour Lights');
    expect(within(card).getByText('On sale')).toBeInTheDocument();
    expect([...card.querySelectorAll('dt')].map((term) => term.textContent)).toEqual(['Price', 'Tickets sold']);
    expect([...card.querySelectorAll('dd')].map((value) => value.textContent)).toEqual(['€9.00', '2 / 100']);
    expect(within(card).getByTestId('tickets-sold')).toHaveTextContent('2 / 100');
    expect(within(card).getByRole('button', { name: 'Sales' })).toBeInTheDocument();
  });
});

describe('a list as a table, or as cards on a phone', () => {
  type Key = 'name' | 'status' | 'price' | 'sold' | 'actions';
  const columns: RowColumn<Key>[] = [
    { key: 'name', label: 'Concert', onCard: 'heading' },
    { key: 'status', label: 'Status', onCard: 'aside' },
    { key: 'price', label: 'Price' },
    { key: 'sold', label: 'Tickets sold', testId: 'tickets-sold' },
    { key: 'actions', label: 'Actions', onCard: 'actions', controls: true },
  ];
  const rows = [
    { id: 'e1', name: 'Harbour Lights', sold: '2 / 100' },
    { id: 'e2', name: 'Autumn Sessions', sold: '0' },
  ];
  const renderList = (): void => {
    render(
      <MantineProvider>
        <RowTable
          rows={rows}
          columns={columns}
          cellsOf={(row) => ({
            name: row.name,
            status: 'On sale',
            price: '€9.00',
            sold: row.sold,
            actions: <button type="button">Sales of {row.name}</button>,
          })}
          testId="things-table"
          rowTestId="thing-row"
        />
      </MantineProvider>,
    );
  };

  it('shows a table with a head per column, the controls’ column named for screen readers only', () => {
    renderList();
    const table = screen.getByTestId('things-table');
    expect([...table.querySelectorAll('th')].map((head) => head.textContent)).toEqual(['Concert', 'Status', 'Price', 'Tickets sold', '']);
    expect(table.querySelectorAll('th')[4]).toHaveAttribute('aria-label', 'Actions');
    const [first] = screen.getAllByTestId('thing-row');
    expect(first?.tagName).toBe('TR');
    expect(within(first as HTMLElement).getByTestId('tickets-sold')).toHaveTextContent('2 / 100');
    expect(within(first as HTMLElement).getByRole('button', { name: 'Sales of Harbour Lights' })).toBeInTheDocument();
  });

  it('on a phone shows each row as a card: heading, aside, the other columns as labelled fields, then the actions', () => {
    // Below Mantine's `sm` breakpoint (the one media query asked about matches).
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query.includes('min-width') });
    try {
      renderList();
      expect(document.querySelector('table')).toBeNull();
      const cards = within(screen.getByTestId('things-table')).getAllByTestId('thing-row');
      expect(cards).toHaveLength(2);
      const [first] = cards as [HTMLElement];
      expect(first).toHaveTextContent('Harbour Lights');
      expect(within(first).getByText('On sale')).toBeInTheDocument();
      expect([...first.querySelectorAll('dt')].map((term) => term.textContent)).toEqual(['Price', 'Tickets sold']);
      expect(within(first).getByTestId('tickets-sold')).toHaveTextContent('2 / 100');
      expect(within(first).getByRole('button', { name: 'Sales of Harbour Lights' })).toBeInTheDocument();
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});
