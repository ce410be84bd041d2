import { bindMediaSession, bindTabTitle, playingTitle } from './media-session';
import type { PlayerSnapshot, PlayerStore } from './player-store';

const CONCERT = { id: 'c1', title: 'Opening Night', artistName: 'The Testers', image: '/img/c1.jpg', thumbnail: '/img/c1-thumb.jpg', startsAt: '2026-11-24T12:00:00Z', accessUntil: '2026-11-25T12:00:00Z' };

/** A store whose snapshot the test sets; the actions are spies. */
function fakeStore(initial: Partial<PlayerSnapshot>) {
  let snapshot = {
    concert: null,
    playlistUrl: null,
    phase: { kind: 'idle' },
    live: null,
    paused: true,
    range: null,
    chapters: [],
    currentTime: 0,
    ...initial,
  } as PlayerSnapshot;
  const subscribers = new Set<() => void>();
  const store = {
    subscribe: (fn: () => void) => {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    getSnapshot: () => snapshot,
    resume: vi.fn(),
    pause: vi.fn(),
    stop: vi.fn(),
    seek: vi.fn(),
    skip: vi.fn(),
  };
  const change = (next: Partial<PlayerSnapshot>): void => {
    snapshot = { ...snapshot, ...next };
    for (const fn of subscribers) fn();
  };
  return { store: store as unknown as PlayerStore & typeof store, change };
}

class FakeMetadata {
  title: string;
  artist: string;
  album: string;
  artwork: MediaImage[];
  constructor(init: MediaMetadataInit) {
    this.title = init.title ?? '';
    this.artist = init.artist ?? '';
    this.album = init.album ?? '';
    this.artwork = [...(init.artwork ?? [])];
  }
}

function fakeSession() {
  const handlers = new Map<string, MediaSessionActionHandler | null>();
  const session = {
    metadata: null as MediaMetadata | null,
    playbackState: 'none' as MediaSessionPlaybackState,
    setActionHandler: (action: string, handler: MediaSessionActionHandler | null) => {
      handlers.set(action, handler);
    },
  };
  return { session: session as unknown as MediaSession, handlers };
}

describe('media session', () => {
  beforeAll(() => {
    vi.stubGlobal('MediaMetadata', FakeMetadata);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('shows the concert on the lock screen, with play and pause, and seeking once there is a recording', () => {
    const { store, change } = fakeStore({});
    const { session, handlers } = fakeSession();
    bindMediaSession(store, session);
    expect(session.metadata).toBeNull();
    expect(session.playbackState).toBe('none');

    change({ concert: CONCERT, phase: { kind: 'connecting' } });
    expect(session.metadata).toMatchObject({ title: 'Opening Night', artist: 'The Testers' });
    expect(session.metadata?.artwork.map((image) => image.src)).toEqual([`${window.location.origin}/img/c1-thumb.jpg`, `${window.location.origin}/img/c1.jpg`]);
    expect(session.playbackState).toBe('paused');
    handlers.get('play')?.({ action: 'play' });
    expect(store.resume).toHaveBeenCalled();
    // Nothing recorded yet: nothing to seek in.
    expect(handlers.get('seekto')).toBeNull();

    change({ phase: { kind: 'playing' }, paused: false, range: { start: 0, end: 60 } });
    expect(session.playbackState).toBe('playing');
    handlers.get('pause')?.({ action: 'pause' });
    expect(store.pause).toHaveBeenCalled();
    handlers.get('seekto')?.({ action: 'seekto', seekTime: 12 });
    expect(store.seek).toHaveBeenCalledWith(12);
    handlers.get('seekbackward')?.({ action: 'seekbackward' });
    expect(store.skip).toHaveBeenCalledWith(-10);
    handlers.get('seekforward')?.({ action: 'seekforward', seekOffset: 5 });
    expect(store.skip).toHaveBeenCalledWith(5);

    change({ concert: null, phase: { kind: 'idle' }, paused: true, range: null });
    expect(session.metadata).toBeNull();
    expect(handlers.get('play')).toBeNull();
    expect(handlers.get('seekto')).toBeNull();
  });

  it('names the song playing on the lock screen as the show moves through its titles', () => {
    const chapters = [
      { id: 'm1', title: 'First Song', artist: null, start: 10 },
      { id: 'm2', title: 'Guest Song', artist: 'A Guest', start: 40 },
    ];
    const { store, change } = fakeStore({ concert: CONCERT, phase: { kind: 'playing' }, paused: false, live: true, chapters, currentTime: 5 });
    const { session } = fakeSession();
    bindMediaSession(store, session);
    // Before the first title: the concert.
    expect(session.metadata).toMatchObject({ title: 'Opening Night', artist: 'The Testers', album: 'Encore' });
    const before = session.metadata;
    change({ currentTime: 12 });
    expect(session.metadata).toMatchObject({ title: 'First Song', artist: 'The Testers', album: 'Opening Night' });
    expect(session.metadata?.artwork).toHaveLength(2);
    const first = session.metadata;
    // The same song a moment later: the metadata is left as it is.
    change({ currentTime: 13 });
    expect(session.metadata).toBe(first);
    change({ currentTime: 41 });
    expect(session.metadata).toMatchObject({ title: 'Guest Song', artist: 'A Guest', album: 'Opening Night' });
    expect(session.metadata).not.toBe(before);
  });

  it('does nothing where the browser has no Media Session', () => {
    const { store } = fakeStore({ concert: CONCERT });
    expect(() => bindMediaSession(store, undefined)()).not.toThrow();
  });
});

describe('tab title', () => {
  it('names what plays, and gives the page its own title back when the music stops', async () => {
    document.title = 'Events · Encore';
    const { store, change } = fakeStore({});
    const unbind = bindTabTitle(store);
    expect(document.title).toBe('Events · Encore');
    change({ concert: CONCERT, phase: { kind: 'playing' }, paused: false });
    expect(document.title).toBe('▶ Opening Night · The Testers');

    // The fan moves to another page, which sets its title: the music's stays.
    document.title = 'My concerts · Encore';
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe('▶ Opening Night · The Testers');

    change({ paused: true });
    expect(document.title).toBe('My concerts · Encore');
    unbind();
  });

  it('is the page\u2019s while nothing plays', () => {
    expect(playingTitle({ concert: CONCERT, phase: { kind: 'waiting' }, paused: true })).toBeNull();
    expect(playingTitle({ concert: null, phase: { kind: 'idle' }, paused: true })).toBeNull();
  });
});
