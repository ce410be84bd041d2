import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { setupI18n } from '../../../i18n';
import { renderPage } from '../../../test/render';
import type { Chapter } from '../chapters';
import type { Rendition } from '../model';
import { appPlayer } from '../player';
import type { StreamEvents } from '../stream-engine';
import { ListenButton } from './listen-button';
import { MiniPlayer } from './mini-player';
import { StagePage } from './stage-page';

const api = vi.hoisted(() => ({
  createStreamSession: vi.fn(),
  checkPlaylist: vi.fn(),
  getListeningStatus: vi.fn(),
}));
const engine = vi.hoisted(() => ({ attachStream: vi.fn(), playsFlac: vi.fn(() => true) }));
const events = vi.hoisted(() => ({ getEvent: vi.fn() }));
vi.mock('../api', () => api);
vi.mock('../stream-engine', () => engine);
vi.mock('../../events/api', () => events);

const EVENT = {
  id: 'e1',
  title: 'Opening Night',
  artistName: 'The Testers',
  projectId: 'p-testers',
  image: null,
  thumbnail: null,
  startsAt: new Date(Date.now() - 60_000).toISOString(),
  accessUntil: new Date(Date.now() + 86_000_000).toISOString(),
  owned: true,
  access: 'live',
  state: {
    phase: 'live',
    reason: 'on_air',
    doorsAt: new Date(Date.now() - 16 * 60_000).toISOString(),
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + 89 * 60_000).toISOString(),
    replayUntil: new Date(Date.now() + 86_000_000).toISOString(),
    onAir: true,
    nextChangeAt: new Date(Date.now() + 89 * 60_000).toISOString(),
  },
};

let handlers: StreamEvents | null = null;
let chapters: Chapter[] = [];
let latency: number | null = 1.04;
let edge = 29;
let renditions: Rendition[] = [];

function shell(path = '/events') {
  return renderPage(
    <>
      <Routes>
        <Route path="/events" element={<ListenButton event={EVENT} />} />
        <Route path="/stage/:concertId" element={<StagePage />} />
      </Routes>
      <MiniPlayer />
    </>,
    path,
  );
}

/** The player re-reads the media element on its events (and four times a second). */
function tick(): void {
  act(() => {
    appPlayer().audio().dispatchEvent(new Event('seeked'));
  });
}

/** Press Listen on the card and wait until the stream is attached. */
async function listen(): Promise<void> {
  await userEvent.click(screen.getByTestId('player-listen'));
  await waitFor(() => {
    expect(handlers).not.toBeNull();
  });
}

/** The playlist is live, with `end` seconds seekable: the audio element. */
function liveUntil(end: number): HTMLAudioElement {
  act(() => {
    handlers?.onPlaylist(true);
  });
  const audio = appPlayer().audio();
  Object.defineProperty(audio, 'seekable', { configurable: true, get: () => ({ length: 1, start: () => 0, end: () => end }) });
  return audio;
}

describe('mini-player and stage view', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockReturnValue(undefined);
  });
  beforeEach(() => {
    handlers = null;
    chapters = [];
    latency = 1.04;
    edge = 29;
    renditions = [];
    api.createStreamSession.mockReset().mockResolvedValue({ playlistUrl: '/stream/t1/index.m3u8', expiresAt: EVENT.accessUntil });
    api.checkPlaylist.mockReset().mockResolvedValue({ kind: 'ready' });
    api.getListeningStatus.mockReset().mockResolvedValue({ listeners: 1234, accessUntil: EVENT.accessUntil });
    events.getEvent.mockReset().mockResolvedValue(EVENT);
    engine.attachStream.mockReset().mockImplementation((_audio: HTMLAudioElement, _url: string, h: StreamEvents) => {
      handlers = h;
      return Promise.resolve({
        liveEdge: () => edge,
        latency: () => latency,
        chapters: () => chapters,
        renditions: () => renditions,
        playing: () => renditions.find((r) => r.name === 'standard') ?? null,
        setQuality: vi.fn(),
        destroy: vi.fn(),
      });
    });
  });
  afterEach(() => {
    act(() => {
      appPlayer().stop();
    });
  });

  it('Listen puts the concert in the bar: live, how far behind, how many listen', async () => {
    shell();
    expect(screen.queryByTestId('mini-player')).toBeNull();
    await userEvent.click(screen.getByTestId('player-listen'));
    const bar = await screen.findByTestId('mini-player');
    expect(bar).toHaveTextContent('Opening Night');
    expect(bar).toHaveTextContent('The Testers');
    await waitFor(() => {
      expect(bar).toHaveAttribute('data-phase', 'playing');
    });
    const audio = liveUntil(30);
    audio.currentTime = 28;
    tick();
    expect(screen.getByTestId('player-live-badge')).toHaveTextContent('● LIVE · 1.0 s behind');
    expect(screen.getByTestId('player-listeners')).toHaveTextContent('1,234 listening now');
    // The card now says where the concert plays.
    expect(screen.getByTestId('player-in-bar')).toBeInTheDocument();
  });

  it('behind live, the bar shows how far and goes back to live', async () => {
    shell();
    await listen();
    const audio = liveUntil(800);
    edge = 799;
    audio.currentTime = 799 - 754;
    tick();
    expect(screen.getByTestId('player-behind')).toHaveTextContent('-12:34');
    await userEvent.click(screen.getByTestId('player-back-to-live'));
    expect(audio.currentTime).toBe(799);
  });

  it('the stage view shows the concert with its songs; Space plays and pauses, but not in a field', async () => {
    chapters = [
      { id: 'm1', title: 'Intro', artist: null, start: 2 },
      { id: 'm2', title: 'Encore', artist: 'Guest', start: 12 },
    ];
    shell('/stage/e1');
    // Opened from a link: the concert's Listen button.
    await userEvent.click(await screen.findByTestId('player-listen'));
    await waitFor(() => {
      expect(screen.getByTestId('stage')).toHaveAttribute('data-phase', 'playing');
    });
    act(() => {
      handlers?.onPlaylist(false);
    });
    const audio = appPlayer().audio();
    Object.defineProperty(audio, 'seekable', { configurable: true, get: () => ({ length: 1, start: () => 0, end: () => 60 }) });
    audio.currentTime = 13;
    tick();
    expect(screen.getByTestId('stage-title')).toHaveTextContent('Opening Night');
    expect(screen.getByTestId('player-now-playing')).toHaveTextContent('Now playing: Encore · Guest');
    expect(screen.getAllByTestId('player-chapter')).toHaveLength(2);
    expect(screen.getByTestId('player-replay-until')).toHaveTextContent(/Replay available until .* left\)/);

    await userEvent.click(screen.getAllByTestId('player-chapter')[0] as HTMLElement);
    expect(audio.currentTime).toBe(2);

    const play = vi.mocked(HTMLMediaElement.prototype.play);
    const pause = vi.mocked(HTMLMediaElement.prototype.pause);
    Object.defineProperty(audio, 'paused', { configurable: true, get: () => false });
    pause.mockClear();
    act(() => {
      (document.activeElement as HTMLElement | null)?.blur();
    });
    await userEvent.keyboard(' ');
    expect(pause).toHaveBeenCalledTimes(1);
    Object.defineProperty(audio, 'paused', { configurable: true, get: () => true });
    play.mockClear();
    await userEvent.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);

    // Typing a space in a field is typing.
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    play.mockClear();
    await userEvent.keyboard(' ');
    expect(play).not.toHaveBeenCalled();
    field.remove();
  });

  it('the bar names the song playing, and nothing before the first or in a show without titles', async () => {
    chapters = [{ id: 'm1', title: 'A Very Long Song Title That Has To Be Cut To Fit The Bar', artist: 'Guest', start: 10 }];
    shell();
    await listen();
    const audio = liveUntil(30);
    audio.currentTime = 5;
    tick();
    expect(screen.queryByTestId('mini-player-song')).toBeNull();
    audio.currentTime = 12;
    tick();
    const song = screen.getByTestId('mini-player-song');
    expect(song).toHaveTextContent('♪ A Very Long Song Title That Has To Be Cut To Fit The Bar');
    expect(song).toHaveAttribute('title', 'Now playing: A Very Long Song Title That Has To Be Cut To Fit The Bar');
    // Under the concert's title and artist, which stay.
    expect(screen.getByTestId('mini-player-title')).toHaveTextContent('Opening Night');
    expect(screen.getByTestId('mini-player-artist')).toHaveTextContent('The Testers');
  });

  it("wider than a phone, the artist's name in the bar opens the artist's page, beside the title's link to the stage", async () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...original(query), matches: query === '(min-width: 36em)' })) as typeof window.matchMedia;
    try {
      shell();
      await listen();
      const artist = screen.getByTestId('mini-player-artist').closest('a');
      expect(artist).toHaveAttribute('href', '/artists/p-testers');
      const stage = screen.getByTestId('mini-player-concert');
      expect(stage).toHaveAttribute('href', '/stage/e1');
      expect(stage).not.toContainElement(artist);
    } finally {
      window.matchMedia = original;
    }
  });

  it('on a phone, the concert in the bar is one link to the stage', async () => {
    shell();
    await listen();
    const stage = screen.getByTestId('mini-player-concert');
    expect(stage).toHaveAttribute('href', '/stage/e1');
    expect(stage).toContainElement(screen.getByTestId('mini-player-artist'));
  });

  it('closing the bar stops the music and forgets the concert', async () => {
    shell();
    await userEvent.click(screen.getByTestId('player-listen'));
    await screen.findByTestId('mini-player');
    await userEvent.click(screen.getByTestId('mini-player-close'));
    expect(screen.queryByTestId('mini-player')).toBeNull();
    expect(screen.getByTestId('player-listen')).toBeInTheDocument();
  });

  it('the quality menu offers what the show has; the bar names the rendition playing', async () => {
    renditions = [
      { level: 0, name: 'standard', codec: 'aac', kbps: 128, sampleRate: 48_000 },
      { level: 1, name: 'saver', codec: 'aac', kbps: 48, sampleRate: 48_000 },
    ];
    shell();
    await userEvent.click(screen.getByTestId('player-listen'));
    const bar = await screen.findByTestId('mini-player');
    const menu = await screen.findByTestId('quality-menu');
    await userEvent.click(menu);
    const choices = await screen.findByTestId('quality-choices');
    expect(choices).toHaveTextContent('Standard · AAC 128 kbit/s');
    expect(screen.getByTestId('quality-auto')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('quality-saver')).toHaveTextContent('Data saver');
    expect(screen.queryByTestId('quality-high')).toBeNull();
    expect(screen.queryByTestId('quality-lossless')).toBeNull();
    await userEvent.click(screen.getByTestId('quality-saver'));
    await waitFor(() => {
      expect(screen.getByTestId('quality-menu')).toHaveAttribute('data-quality', 'saver');
    });
    expect(bar).toBeInTheDocument();
  });
});

