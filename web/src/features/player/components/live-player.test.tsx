import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupI18n } from '../../../i18n';
import { ApiError } from '../../../lib/errors';
import type { PlaylistState } from '../api';
import type { Chapter } from '../chapters';
import type { StreamEvents } from '../stream-engine';
import { LivePlayer } from './live-player';

const api = vi.hoisted(() => ({ createStreamSession: vi.fn(), checkPlaylist: vi.fn() }));
const engine = vi.hoisted(() => ({ attachStream: vi.fn() }));
vi.mock('../api', () => api);
vi.mock('../stream-engine', () => engine);

let events: StreamEvents | null = null;
let chapters: Chapter[] = [];

function renderPlayer(startsAt = new Date(Date.now() - 60_000).toISOString()): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <LivePlayer event={{ id: 'e1', startsAt }} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('live player', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockReturnValue(undefined);
  });
  beforeEach(() => {
    events = null;
    chapters = [];
    api.createStreamSession.mockReset().mockResolvedValue({ playlistUrl: '/stream/t1/index.m3u8', expiresAt: '2026-11-23T00:00:00Z' });
    api.checkPlaylist.mockReset();
    engine.attachStream.mockReset().mockImplementation((_audio: HTMLAudioElement, _url: string, handlers: StreamEvents) => {
      events = handlers;
      return Promise.resolve({ liveEdge: () => null, latency: () => null, chapters: () => chapters, destroy: vi.fn() });
    });
  });

  it('shows the server reason when no session is given (403)', async () => {
    api.createStreamSession.mockRejectedValue(new ApiError('Listening opens 15 minutes before the start.', 403));
    renderPlayer();
    await userEvent.click(screen.getByTestId('player-listen'));
    expect(await screen.findByText('Listening opens 15 minutes before the start.')).toBeInTheDocument();
    expect(engine.attachStream).not.toHaveBeenCalled();
  });

  it('counts down to a future start while the playlist answers 404', async () => {
    api.checkPlaylist.mockResolvedValue({ kind: 'waiting' } satisfies PlaylistState);
    renderPlayer(new Date(Date.now() + 5 * 60_000).toISOString());
    await userEvent.click(screen.getByTestId('player-listen'));
    expect(await screen.findByText(/The concert starts in/)).toBeInTheDocument();
    expect(engine.attachStream).not.toHaveBeenCalled();
  });

  it('plays, stops on "another device", and shows the reason when "Listen here" is refused', async () => {
    api.checkPlaylist.mockResolvedValueOnce({ kind: 'ready' } satisfies PlaylistState);
    renderPlayer();
    await userEvent.click(screen.getByTestId('player-listen'));
    await waitFor(() => {
      expect(engine.attachStream).toHaveBeenCalledWith(expect.any(HTMLAudioElement), '/stream/t1/index.m3u8', expect.anything());
    });
    expect(screen.getByTestId('player')).toHaveAttribute('data-phase', 'playing');

    // A stream URL answered 403: the playlist says why.
    api.checkPlaylist.mockResolvedValueOnce({ kind: 'denied', denial: 'superseded' } satisfies PlaylistState);
    events?.onDenied();
    expect(await screen.findByText('You are listening on another device.')).toBeInTheDocument();

    api.createStreamSession.mockRejectedValueOnce(new ApiError('This ticket was refunded.', 403));
    await userEvent.click(screen.getByTestId('player-listen-here'));
    expect(await screen.findByText('This ticket was refunded.')).toBeInTheDocument();
  });

  it('says the access has ended, with no way to listen again', async () => {
    api.checkPlaylist.mockResolvedValueOnce({ kind: 'denied', denial: 'expired' } satisfies PlaylistState);
    renderPlayer();
    await userEvent.click(screen.getByTestId('player-listen'));
    expect(await screen.findByText('Your access to this concert has ended.')).toBeInTheDocument();
    expect(screen.queryByTestId('player-listen-here')).not.toBeInTheDocument();
  });

  it('shows the song at the listener’s position and, in the replay, seeks to a chapter clicked', async () => {
    chapters = [
      { id: 'm1', title: 'Intro Jam', artist: null, start: 0 },
      { id: 'm2', title: 'Say "Hi"', artist: 'The Band', start: 42 },
    ];
    api.checkPlaylist.mockResolvedValueOnce({ kind: 'ready' } satisfies PlaylistState);
    renderPlayer();
    await userEvent.click(screen.getByTestId('player-listen'));
    await waitFor(() => {
      expect(events).not.toBeNull();
    });
    act(() => {
      events?.onPlaylist(false);
    });
    expect(await screen.findByTestId('player-now-playing-title')).toHaveTextContent('Intro Jam');
    const items = await screen.findAllByTestId('player-chapter');
    expect(items.map((item) => item.textContent)).toEqual(['0:00Intro Jam', '0:42Say "Hi"The Band']);

    await userEvent.click(screen.getByRole('button', { name: 'Play from “Say "Hi"”' }));
    const audio = screen.getByTestId<HTMLAudioElement>('player-audio');
    expect(audio.currentTime).toBe(42);
    await waitFor(() => {
      expect(screen.getByTestId('player-now-playing-title')).toHaveTextContent('Say "Hi"');
    });
    expect(screen.getByTestId('player-now-playing-artist')).toHaveTextContent('The Band');
    expect(items[1]).toHaveAttribute('aria-current', 'true');
  });

  it('shows no chapter list at the live edge', async () => {
    chapters = [{ id: 'm1', title: 'Intro Jam', artist: null, start: 0 }];
    api.checkPlaylist.mockResolvedValueOnce({ kind: 'ready' } satisfies PlaylistState);
    renderPlayer();
    await userEvent.click(screen.getByTestId('player-listen'));
    await waitFor(() => {
      expect(events).not.toBeNull();
    });
    act(() => {
      events?.onPlaylist(true);
    });
    expect(await screen.findByTestId('player-now-playing-title')).toHaveTextContent('Intro Jam');
    await screen.findByTestId('player-live-badge');
    expect(screen.queryByTestId('player-chapters')).not.toBeInTheDocument();
  });
});
