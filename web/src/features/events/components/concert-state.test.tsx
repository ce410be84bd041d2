import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import type { EncoreEvent } from '../model';
import { DoorsLobby } from './concert-state';

const START = Date.parse('2026-12-01T20:00:00Z');

const state: EncoreEvent['state'] = {
  phase: 'upcoming',
  reason: null,
  doorsAt: new Date(START - 15 * 60_000).toISOString(),
  startsAt: new Date(START).toISOString(),
  endsAt: new Date(START + 90 * 60_000).toISOString(),
  replayUntil: new Date(START + 24 * 3_600_000).toISOString(),
  onAir: false,
  nextChangeAt: new Date(START - 15 * 60_000).toISOString(),
};

function lobby(owned: boolean): void {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <MemoryRouter>
          <DoorsLobby event={{ id: 'e1', owned, state }} />
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe('the lobby before the doors', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  afterEach(async () => {
    cleanup();
    await act(() => i18n.changeLanguage('gb'));
  });

  it('disables Listen for a ticket holder, says when the doors open and that a notification comes', () => {
    lobby(true);
    const doors = new Date(START - 15 * 60_000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
    expect(screen.getByTestId('doors-at')).toHaveTextContent(`Doors open at ${doors}`);
    expect(screen.getByTestId('player-listen-disabled')).toBeDisabled();
    expect(screen.getByText('You will get a notification when the doors open.')).toBeInTheDocument();
    expect(screen.getByTestId('add-to-calendar')).toHaveAttribute('href', '/api/v1/events/e1/calendar.ics');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers a visitor the calendar and no Listen button', () => {
    lobby(false);
    expect(screen.queryByTestId('player-listen-disabled')).toBeNull();
    expect(screen.getByText('Ticket holders get a notification when the doors open.')).toBeInTheDocument();
  });

  it('writes the doors time in Persian digits for Persian', async () => {
    await act(() => i18n.changeLanguage('ir'));
    lobby(true);
    expect(screen.getByTestId('doors-at').textContent).toMatch(/[۰-۹]{2}:[۰-۹]{2}|[۰-۹]{2}٫[۰-۹]{2}/);
  });
});
