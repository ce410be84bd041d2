import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { RowCard, RowCards } from './row-cards';

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
