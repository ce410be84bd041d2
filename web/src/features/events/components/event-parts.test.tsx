import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import i18n, { setupI18n } from '../../../i18n';
import type { EncoreEvent } from '../model';
import { StateBadge, formatWhen } from './event-parts';

const START = Date.parse('2026-12-01T20:00:00Z');

function stateOf(phase: EncoreEvent['state']['phase'], reason: EncoreEvent['state']['reason']): EncoreEvent['state'] {
  return {
    phase,
    reason,
    doorsAt: new Date(START - 15 * 60_000).toISOString(),
    startsAt: new Date(START).toISOString(),
    endsAt: new Date(START + 90 * 60_000).toISOString(),
    replayUntil: new Date(START + 24 * 3_600_000).toISOString(),
    onAir: false,
    nextChangeAt: null,
  };
}

function badge(state: EncoreEvent['state']): HTMLElement {
  render(
    <MantineProvider>
      <StateBadge state={state} />
    </MantineProvider>,
  );
  return screen.getByTestId('state-badge');
}

describe("a concert's state badge", () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  afterEach(async () => {
    cleanup();
    await act(() => i18n.changeLanguage('gb'));
  });

  it('says "Replay" only of a show that aired, and "Did not air" of one whose time passed in silence', () => {
    expect(badge(stateOf('replay', 'ended'))).toHaveTextContent('Replay');
    cleanup();
    expect(badge(stateOf('replay', 'scheduled_end'))).toHaveTextContent('Did not air');
  });

  it('never says live while waiting for the artist or while the encoder is away', () => {
    expect(badge(stateOf('live', 'awaiting_encoder'))).toHaveTextContent('Starting soon');
    cleanup();
    expect(badge(stateOf('live', 'reconnecting'))).toHaveTextContent('Reconnecting…');
    cleanup();
    expect(badge(stateOf('live', 'on_air'))).toHaveTextContent('Live now');
  });

  it('speaks Persian', async () => {
    await act(() => i18n.changeLanguage('ir'));
    expect(badge(stateOf('replay', 'scheduled_end'))).toHaveTextContent('پخش نشد');
  });
});

describe("a concert's start", () => {
  it('reads in Persian with the Arabic comma and Persian digits, never a Latin comma', () => {
    const when = formatWhen('2026-12-01T20:00:00Z', 'fa-IR');
    expect(when).toMatch(/^[^,]*،[^,]*$/u);
    expect(when).not.toMatch(/[0-9]/);
  });

  it('reads in English as Intl writes it', () => {
    const options: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
    expect(formatWhen('2026-12-01T20:00:00Z', 'en-GB')).toBe(new Date('2026-12-01T20:00:00Z').toLocaleString('en-GB', options));
  });
});

