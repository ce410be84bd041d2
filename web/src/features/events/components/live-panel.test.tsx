import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { setupI18n } from '../../../i18n';
import type { LiveStatus } from '../model';
import { LiveStatusView } from './live-panel';

const status = (extra: Partial<LiveStatus>): LiveStatus => ({
  publisherConnected: false,
  recordedSeconds: 754,
  connectedSeconds: 0,
  bitrateKbps: 0,
  ended: false,
  segments: 180,
  listeners: 12,
  nowPlaying: null,
  awaySeconds: null,
  endsInSeconds: null,
  ...extra,
});

const show = (value: LiveStatus) =>
  render(
    <MantineProvider>
      <LiveStatusView status={value} />
    </MantineProvider>,
  );

describe("the artist's live status", () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the time the encoder is away and says when the show ends by itself', () => {
    vi.useFakeTimers();
    show(status({ awaySeconds: 45, endsInSeconds: 855 }));
    expect(screen.getByTestId('live-status')).toHaveAttribute('data-state', 'away');
    expect(screen.getByTestId('live-status')).toHaveTextContent('Encoder away: reconnecting…');
    const away = screen.getByTestId('live-away');
    expect(away).toHaveTextContent('Away for \u20660:45\u2069. The show ends by itself in \u206614:15\u2069');
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.getByTestId('live-away')).toHaveTextContent('Away for \u20660:48\u2069');
    expect(screen.getByTestId('live-away')).toHaveAttribute('data-left', '852');
  });

  it('says on air, or no publisher yet, without a countdown', () => {
    const { unmount } = show(status({ publisherConnected: true, connectedSeconds: 30 }));
    expect(screen.getByTestId('live-status')).toHaveAttribute('data-state', 'connected');
    expect(screen.queryByTestId('live-away')).toBeNull();
    unmount();
    show(status({ recordedSeconds: 0, segments: 0 }));
    expect(screen.getByTestId('live-status')).toHaveAttribute('data-state', 'offline');
    expect(screen.queryByTestId('live-away')).toBeNull();
  });
});
