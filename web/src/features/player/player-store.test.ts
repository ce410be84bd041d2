import { ApiError } from '../../lib/errors';
import type { PlaylistState } from './api';
import type { Chapter } from './chapters';
import type { PlayerDeps, PlayerStore } from './player-store';
import { LISTENERS_POLL_MS, TICK_MS, createPlayerStore } from './player-store';
import type { Quality, Rendition } from './model';
import { WAIT_RETRY_MS } from './model';
import type { StreamEngine, StreamEvents } from './stream-engine';

const CONCERT = { id: 'c1', title: 'Opening Night', artistName: 'The Testers', image: '/img/c1.jpg', thumbnail: null, startsAt: '2026-11-24T12:00:00Z', accessUntil: '2026-11-25T12:00:00Z' };
const OTHER = { ...CONCERT, id: 'c2', title: 'Closing Night' };
const RENDITIONS: Rendition[] = [
  { level: 0, name: 'standard', codec: 'aac', kbps: 128, sampleRate: 48_000 },
  { level: 1, name: 'saver', codec: 'aac', kbps: 48, sampleRate: 48_000 },
];

/** An <audio> element whose playing jsdom cannot do: play and pause flip `paused`. */
function fakeAudio(): HTMLAudioElement {
  const audio = document.createElement('audio');
  let paused = true;
  let time = 0;
  Object.defineProperty(audio, 'paused', { get: () => paused });
  Object.defineProperty(audio, 'currentTime', {
    get: () => time,
    set: (value: number) => {
      time = value;
    },
  });
  Object.defineProperty(audio, 'seekable', { get: () => ({ length: 1, start: () => 0, end: () => 30 }) });
  audio.play = vi.fn(() => {
    paused = false;
    audio.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  audio.pause = vi.fn(() => {
    paused = true;
    audio.dispatchEvent(new Event('pause'));
  });
  return audio;
}

interface Harness {
  store: PlayerStore;
  deps: { [K in keyof PlayerDeps]: ReturnType<typeof vi.fn> & PlayerDeps[K] };
  events: () => StreamEvents;
  engine: StreamEngine & { destroy: ReturnType<typeof vi.fn>; setQuality: ReturnType<typeof vi.fn> };
  chapters: Chapter[];
}

function harness(): Harness {
  let handlers: StreamEvents | null = null;
  const h: Partial<Harness> = { chapters: [] };
  const engine = {
    liveEdge: () => 29,
    latency: () => 1.04,
    chapters: () => h.chapters ?? [],
    renditions: () => RENDITIONS,
    playing: () => RENDITIONS[1] ?? null,
    setQuality: vi.fn(),
    destroy: vi.fn(),
  };
  const deps = {
    createAudio: vi.fn(fakeAudio),
    openSession: vi.fn(() => Promise.resolve({ playlistUrl: '/stream/t1/index.m3u8', expiresAt: CONCERT.accessUntil })),
    checkPlaylist: vi.fn((): Promise<PlaylistState> => Promise.resolve({ kind: 'ready' })),
    attach: vi.fn((_audio: HTMLAudioElement, _url: string, events: StreamEvents) => {
      handlers = events;
      return Promise.resolve(engine);
    }),
    listening: vi.fn(() => Promise.resolve({ listeners: 42, accessUntil: CONCERT.accessUntil })),
    refusalText: vi.fn((error: unknown) => (error instanceof Error ? error.message : 'unknown')),
    loadQuality: vi.fn((): Promise<Quality | null> => Promise.resolve(null)),
    saveQuality: vi.fn(() => Promise.resolve(null)),
  };
  const store = createPlayerStore(deps as unknown as PlayerDeps);
  return Object.assign(h, {
    store,
    deps,
    engine,
    events: () => {
      if (!handlers) throw new Error('not attached');
      return handlers;
    },
  }) as Harness;
}

/** Lets the promises the store chains settle. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe('player store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens a session, attaches the stream and plays; the same audio element serves every concert', async () => {
    const { store, deps } = harness();
    store.play(CONCERT);
    expect(store.getSnapshot()).toMatchObject({ concert: CONCERT, phase: { kind: 'connecting' }, opening: true });
    await settle();
    expect(deps.openSession).toHaveBeenCalledWith('c1');
    expect(deps.attach).toHaveBeenCalledWith(store.audio(), '/stream/t1/index.m3u8', expect.anything(), 'auto');
    expect(store.getSnapshot()).toMatchObject({ phase: { kind: 'playing' }, paused: false, opening: false });

    store.play(OTHER);
    await settle();
    expect(deps.createAudio).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().concert).toBe(OTHER);
  });

  it('asking for the concert already playing resumes it without a new session', async () => {
    const { store, deps } = harness();
    store.play(CONCERT);
    await settle();
    store.pause();
    expect(store.getSnapshot().paused).toBe(true);
    store.play(CONCERT);
    expect(store.getSnapshot().paused).toBe(false);
    expect(deps.openSession).toHaveBeenCalledTimes(1);
  });

  it('reads the media element, the latency and the titles four times a second while playing', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    h.events().onPlaylist(true);
    h.store.audio().currentTime = 28.5;
    h.chapters = [{ id: 'm1', title: 'Intro', artist: null, start: 2 }];
    vi.advanceTimersByTime(TICK_MS);
    expect(h.store.getSnapshot()).toMatchObject({ live: true, currentTime: 28.5, latency: 1.04, liveEdge: 29, range: { start: 0, end: 30 } });
    expect(h.store.getSnapshot().chapters).toEqual(h.chapters);
    // An unchanged list is the same object: subscribers re-render for nothing else.
    const list = h.store.getSnapshot().chapters;
    h.chapters = [{ id: 'm1', title: 'Intro', artist: null, start: 2 }];
    vi.advanceTimersByTime(TICK_MS);
    expect(h.store.getSnapshot().chapters).toBe(list);
  });

  it('asks for the listeners when playing and every five seconds, and stops asking once stopped', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    // Once whether the show aired (before the playlist), once for the figures.
    expect(h.deps.listening).toHaveBeenCalledTimes(2);
    await settle();
    expect(h.store.getSnapshot().listeners).toBe(42);
    h.deps.listening.mockResolvedValue({ listeners: 43, accessUntil: CONCERT.accessUntil });
    await vi.advanceTimersByTimeAsync(LISTENERS_POLL_MS);
    expect(h.store.getSnapshot().listeners).toBe(43);
    h.store.stop();
    await vi.advanceTimersByTimeAsync(3 * LISTENERS_POLL_MS);
    expect(h.deps.listening).toHaveBeenCalledTimes(3);
    expect(h.store.getSnapshot()).toMatchObject({ concert: null, listeners: null, phase: { kind: 'idle' } });
    expect(h.engine.destroy).toHaveBeenCalled();
  });

  it('waits for the artist without asking for a playlist that cannot exist yet', async () => {
    const h = harness();
    h.deps.listening.mockResolvedValue({ listeners: 0, accessUntil: CONCERT.accessUntil, aired: false, reconnecting: false });
    h.store.play(CONCERT);
    await settle();
    expect(h.store.getSnapshot().phase.kind).toBe('waiting');
    await vi.advanceTimersByTimeAsync(3 * WAIT_RETRY_MS);
    expect(h.deps.checkPlaylist).not.toHaveBeenCalled();
    h.deps.listening.mockResolvedValue({ listeners: 1, accessUntil: CONCERT.accessUntil, aired: true, reconnecting: false });
    await vi.advanceTimersByTimeAsync(WAIT_RETRY_MS);
    expect(h.deps.checkPlaylist).toHaveBeenCalledTimes(1);
    expect(h.store.getSnapshot().phase.kind).toBe('playing');
  });

  it('says the artist is reconnecting while the encoder is away, and LIVE once back', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    expect(h.store.getSnapshot().reconnecting).toBe(false);
    h.deps.listening.mockResolvedValue({ listeners: 5, accessUntil: CONCERT.accessUntil, aired: true, reconnecting: true });
    await vi.advanceTimersByTimeAsync(LISTENERS_POLL_MS);
    expect(h.store.getSnapshot().reconnecting).toBe(true);
    h.deps.listening.mockResolvedValue({ listeners: 5, accessUntil: CONCERT.accessUntil, aired: true, reconnecting: false });
    await vi.advanceTimersByTimeAsync(LISTENERS_POLL_MS);
    expect(h.store.getSnapshot().reconnecting).toBe(false);
  });

  it('waits while the playlist answers 404 and starts by itself once it is there', async () => {
    const h = harness();
    h.deps.checkPlaylist.mockResolvedValueOnce({ kind: 'waiting' });
    h.store.play(CONCERT);
    await settle();
    expect(h.store.getSnapshot().phase.kind).toBe('waiting');
    expect(h.deps.attach).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(h.deps.attach).toHaveBeenCalledTimes(1);
    expect(h.store.getSnapshot().phase.kind).toBe('playing');
  });

  it('stops when another device takes the ticket, and "Listen here" opens a new session', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    h.deps.checkPlaylist.mockResolvedValueOnce({ kind: 'denied', denial: 'superseded' });
    h.events().onDenied();
    await settle();
    expect(h.store.getSnapshot().phase).toEqual({ kind: 'denied', denial: 'superseded' });
    expect(h.store.getSnapshot().paused).toBe(true);
    h.store.listen();
    await settle();
    expect(h.deps.openSession).toHaveBeenCalledTimes(2);
    expect(h.store.getSnapshot().phase.kind).toBe('playing');
  });

  it("shows the server's refusal in its words", async () => {
    const h = harness();
    h.deps.openSession.mockRejectedValueOnce(new ApiError('This ticket was refunded.', 403));
    h.store.play(CONCERT);
    await settle();
    expect(h.store.getSnapshot().phase).toEqual({ kind: 'refused', message: 'This ticket was refunded.' });
    expect(h.deps.attach).not.toHaveBeenCalled();
  });

  it('ignores a session answered after the fan moved on to another concert', async () => {
    const h = harness();
    let answer: (value: { playlistUrl: string; expiresAt: string }) => void = () => undefined;
    h.deps.openSession.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    h.store.play(CONCERT);
    h.store.play(OTHER);
    await settle();
    answer({ playlistUrl: '/stream/old/index.m3u8', expiresAt: CONCERT.accessUntil });
    await settle();
    expect(h.deps.attach).toHaveBeenCalledTimes(1);
    expect(h.deps.attach).toHaveBeenCalledWith(expect.anything(), '/stream/t1/index.m3u8', expect.anything(), 'auto');
    expect(h.store.getSnapshot().concert).toBe(OTHER);
  });

  it('seeks within the recording, goes back to live, and keeps the volume across concerts', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    h.store.seek(5);
    expect(h.store.audio().currentTime).toBe(5);
    h.store.skip(-10);
    expect(h.store.audio().currentTime).toBe(0);
    h.store.skip(100);
    expect(h.store.audio().currentTime).toBe(30);
    h.store.seek(3);
    h.store.backToLive();
    expect(h.store.audio().currentTime).toBe(29);

    h.store.setVolume(0.4);
    h.store.toggleMute();
    expect(h.store.getSnapshot()).toMatchObject({ volume: 0.4, muted: true });
    expect(h.store.audio().muted).toBe(true);
    // Raising the volume of a muted player unmutes it.
    h.store.setVolume(0.6);
    expect(h.store.getSnapshot()).toMatchObject({ volume: 0.6, muted: false });
    h.store.play(OTHER);
    await settle();
    expect(h.store.audio().volume).toBeCloseTo(0.6);
  });

  it('stopping an empty player tells nobody (a sign-out with nothing playing)', () => {
    const { store } = harness();
    const seen = vi.fn();
    store.subscribe(seen);
    store.stop();
    expect(seen).not.toHaveBeenCalled();
  });

  it('tells its subscribers of every change until they leave', async () => {
    const { store } = harness();
    const seen = vi.fn();
    const leave = store.subscribe(seen);
    store.play(CONCERT);
    await settle();
    const count = seen.mock.calls.length;
    expect(count).toBeGreaterThan(1);
    leave();
    store.stop();
    expect(seen).toHaveBeenCalledTimes(count);
  });
});

describe('the listening quality', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('plays the multivariant playlist with the account kept quality, and probes the media playlist', async () => {
    const h = harness();
    h.deps.openSession.mockResolvedValue({ playlistUrl: '/stream/t1/index.m3u8', masterUrl: '/stream/t1/master.m3u8', expiresAt: CONCERT.accessUntil });
    h.deps.loadQuality.mockResolvedValue('saver');
    h.store.play(CONCERT);
    await settle();
    expect(h.deps.checkPlaylist).toHaveBeenCalledWith('/stream/t1/index.m3u8');
    expect(h.deps.attach).toHaveBeenCalledWith(expect.anything(), '/stream/t1/master.m3u8', expect.anything(), 'saver');
    expect(h.store.getSnapshot().quality).toBe('saver');
    vi.advanceTimersByTime(TICK_MS);
    expect(h.store.getSnapshot().renditions).toEqual(RENDITIONS);
    expect(h.store.getSnapshot().rendition?.name).toBe('saver');
  });

  it('an older server without masterUrl: the media playlist is played', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    expect(h.deps.attach).toHaveBeenCalledWith(expect.anything(), '/stream/t1/index.m3u8', expect.anything(), 'auto');
  });

  it('a choice switches the engine without a new session, is kept with the account, and carries to the next show', async () => {
    const h = harness();
    h.store.play(CONCERT);
    await settle();
    h.store.setQuality('high');
    expect(h.engine.setQuality).toHaveBeenCalledWith('high');
    expect(h.deps.saveQuality).toHaveBeenCalledWith('high');
    expect(h.deps.openSession).toHaveBeenCalledTimes(1);
    expect(h.deps.attach).toHaveBeenCalledTimes(1);
    expect(h.store.getSnapshot().quality).toBe('high');
    // The account's older answer does not undo a choice made here meanwhile.
    h.deps.loadQuality.mockResolvedValue('saver');
    h.store.play(OTHER);
    h.store.setQuality('lossless');
    await settle();
    expect(h.store.getSnapshot().quality).toBe('lossless');
    expect(h.deps.attach).toHaveBeenLastCalledWith(expect.anything(), '/stream/t1/index.m3u8', expect.anything(), 'lossless');
  });

  it('a failing account read leaves Auto and still plays', async () => {
    const h = harness();
    h.deps.loadQuality.mockRejectedValue(new Error('offline'));
    h.store.play(CONCERT);
    await settle();
    expect(h.store.getSnapshot().phase.kind).toBe('playing');
    expect(h.deps.attach).toHaveBeenCalledWith(expect.anything(), '/stream/t1/index.m3u8', expect.anything(), 'auto');
  });
});
