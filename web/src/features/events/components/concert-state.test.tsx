import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import { clearSession, storeTokens } from '../../auth/session';
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

function lobby(owned: boolean, { signedIn = true, reminder = false } = {}): void {
  if (signedIn) storeTokens({ access_token: 'a' });
  else clearSession();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <MemoryRouter>
          <DoorsLobby event={{ id: 'e1', owned, reminder, state }} />
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
    clearSession();
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

  it('offers a signed-in fan without a ticket the calendar and "Remind me when doors open", no Listen button', () => {
    lobby(false);
    expect(screen.queryByTestId('player-listen-disabled')).toBeNull();
    expect(screen.getByTestId('add-to-calendar')).toBeInTheDocument();
    expect(screen.getByTestId('reminder-ask')).toHaveTextContent('Remind me when doors open');
    expect(screen.queryByTestId('reminder-cancel')).toBeNull();
  });

  it('tells a fan who asked that a notification comes, with a way to cancel it', () => {
    lobby(false, { reminder: true });
    expect(screen.getByTestId('reminder-asked')).toHaveTextContent("You'll be notified when doors open");
    expect(screen.getByTestId('reminder-cancel')).toHaveTextContent('Cancel reminder');
    expect(screen.queryByTestId('reminder-ask')).toBeNull();
  });

  it('sends a visitor to sign in and back to the concert for the reminder', () => {
    lobby(false, { signedIn: false });
    expect(screen.getByTestId('reminder-sign-in')).toHaveAttribute('href', '/auth/login?redirect=%2Fconcerts%2Fe1');
    expect(screen.queryByTestId('reminder-ask')).toBeNull();
  });

  it('words the reminder in Persian for Persian', async () => {
    await act(() => i18n.changeLanguage('ir'));
    lobby(false);
    expect(screen.getByTestId('reminder-ask')).toHaveTextContent('وقتی درها باز شد به من یادآوری کن');
  });

  it('writes the doors time in Persian digits for Persian', async () => {
    await act(() => i18n.changeLanguage('ir'));
    lobby(true);
    expect(screen.getByTestId('doors-at').textContent).toMatch(/[۰-۹]{2}:[۰-۹]{2}|[۰-۹]{2}٫[۰-۹]{2}/);
  });
});
