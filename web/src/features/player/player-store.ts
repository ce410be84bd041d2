/**
 * The one player of the app: it owns the <audio> element and the stream engine (hls.js),
 * outside React, so that navigating anywhere keeps the music playing. Pages ask it to play
 * a concert; the mini-player and the stage view read its snapshot.
 *
 * A listening session: the server opens it, the playlist is probed, the player waits while
 * the artist has not started (404), plays once it is there, and stops for good when the
 * server denies it (another device, access ended). The session's states are
 * `sessionReducer` (model.ts); this store runs the effects.
 */
import type { PlaylistState } from './api';
import type { Chapter } from './chapters';
import { sameChapters } from './chapters';
import type { ListeningStatus, Quality, Rendition, SessionAction, SessionState, StreamSession } from './model';
import { INITIAL_SESSION, WAIT_RETRY_MS, isTicking, sessionReducer } from './model';
import type { StreamEngine, StreamEvents } from './stream-engine';

/** What the player shows of the concert it plays. */
export interface NowConcert {
  id: string;
  title: string;
  artistName: string;
  /** The artist's project, for the link to its page (absent in a player state kept from before). */
  projectId?: string;
  image?: string | null;
  thumbnail?: string | null;
  startsAt: string;
  accessUntil: string;
}

/** The session (`phase`, `live`: true live, false the replay, null not known yet) and more. */
export interface PlayerSnapshot extends SessionState {
  concert: NowConcert | null;
  /** A session is being opened on the server. */
  opening: boolean;
  paused: boolean;
  currentTime: number;
  /** The seekable range, in media time. */
  range: { start: number; end: number } | null;
  /** Media time of the live edge hls.js aims at. */
  liveEdge: number | null;
  /** Seconds behind the live edge, as hls.js measures it. */
  latency: number | null;
  chapters: Chapter[];
  volume: number;
  muted: boolean;
  /** People listening now (the server's figure), once known. */
  listeners: number | null;
  /** The show aired and its encoder is away: "The artist is reconnecting…", not LIVE. */
  reconnecting: boolean;
  /** The listener's choice (the account's, once read). */
  quality: Quality;
  /** The show's renditions this browser plays (empty: native HLS, or not read yet). */
  renditions: Rendition[];
  /** The rendition playing now, once known. */
  rendition: Rendition | null;
}

/** What the store needs from the outside world (the API, hls.js, the DOM): tests give fakes. */
export interface PlayerDeps {
  createAudio: () => HTMLAudioElement;
  openSession: (eventId: string) => Promise<StreamSession>;
  checkPlaylist: (playlistUrl: string) => Promise<PlaylistState>;
  attach: (audio: HTMLAudioElement, playlistUrl: string, events: StreamEvents, quality: Quality) => Promise<StreamEngine>;
  /** The account's kept quality (null: none, or not signed in). */
  loadQuality: () => Promise<Quality | null>;
  /** Keep the choice with the account, for its other devices and later sessions. */
  saveQuality: (quality: Quality) => Promise<unknown>;
  listening: (eventId: string) => Promise<ListeningStatus>;
  /** The server's refusal in the reader's words. */
  refusalText: (error: unknown) => string;
}

/** The controls re-read the media element this often while something may play. */
export const TICK_MS = 250;
/** The listeners figure (and whether the artist is reconnecting) is asked for this often
 * while a session is open. */
export const LISTENERS_POLL_MS = 5_000;

export interface PlayerStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => PlayerSnapshot;
  /** Play `concert`: a new session, unless it is the one already open (then it resumes). */
  play: (concert: NowConcert) => void;
  /** Open a session again for the concert shown (after a denial or a refusal). */
  listen: () => void;
  toggle: () => void;
  resume: () => void;
  pause: () => void;
  seek: (time: number) => void;
  /** Jump by `delta` seconds within the seekable range. */
  skip: (delta: number) => void;
  backToLive: () => void;
  setVolume: (volume: number) => void;
  toggleMute: () => void;
  /** Choose a rendition (or Auto): applied at once, without a gap, and kept. */
  setQuality: (quality: Quality) => void;
  /** Stop and forget the concert (the mini-player's close, a sign-out). */
  stop: () => void;
  /** The media element (created on first use). */
  audio: () => HTMLAudioElement;
}

const INITIAL: PlayerSnapshot = {
  concert: null,
  ...INITIAL_SESSION,
  opening: false,
  paused: true,
  currentTime: 0,
  range: null,
  liveEdge: null,
  latency: null,
  chapters: [],
  volume: 1,
  muted: false,
  listeners: null,
  reconnecting: false,
  quality: 'auto',
  renditions: [],
  rendition: null,
};

function seekableRange(audio: HTMLAudioElement): { start: number; end: number } | null {
  const ranges = audio.seekable;
  if (ranges.length === 0) return null;
  const end = ranges.end(ranges.length - 1);
  if (!Number.isFinite(end)) return null;
  return { start: ranges.start(0), end };
}

function sameRendition(a: Rendition | null, b: Rendition | null): boolean {
  return a === b || (a !== null && b !== null && a.level === b.level && a.name === b.name && a.kbps === b.kbps && a.sampleRate === b.sampleRate);
}

function sameRenditions(a: readonly Rendition[], b: readonly Rendition[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRendition(r, b[i] ?? null));
}

function playQuietly(audio: HTMLAudioElement): void {
  try {
    // A refused autoplay leaves the player paused with its Play button: nothing to report.
    void Promise.resolve(audio.play()).catch(() => undefined);
  } catch {
    // Same: an element that cannot play yet stays paused.
  }
}

export function createPlayerStore(deps: PlayerDeps): PlayerStore {
  let snapshot: PlayerSnapshot = INITIAL;
  const subscribers = new Set<() => void>();
  let audioElement: HTMLAudioElement | null = null;
  let engine: StreamEngine | null = null;
  /** Bumped whenever a session or an engine is replaced: older callbacks are ignored. */
  let generation = 0;
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let tickTimer: ReturnType<typeof setInterval> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;

  const emit = (): void => {
    for (const subscriber of subscribers) subscriber();
  };
  const set = (change: Partial<PlayerSnapshot>): void => {
    snapshot = { ...snapshot, ...change };
    syncTimers();
    emit();
  };
  const session = (action: SessionAction): void => {
    const current: SessionState = { playlistUrl: snapshot.playlistUrl, masterUrl: snapshot.masterUrl, phase: snapshot.phase, live: snapshot.live };
    set(sessionReducer(current, action));
  };

  const readMedia = (): void => {
    const audio = audioElement;
    if (!audio) return;
    const chapters = engine?.chapters() ?? [];
    const renditions = engine?.renditions() ?? [];
    const rendition = engine?.playing() ?? null;
    set({
      renditions: sameRenditions(snapshot.renditions, renditions) ? snapshot.renditions : renditions,
      rendition: sameRendition(snapshot.rendition, rendition) ? snapshot.rendition : rendition,
      currentTime: audio.currentTime,
      paused: audio.paused,
      range: seekableRange(audio),
      liveEdge: engine?.liveEdge() ?? null,
      latency: engine?.latency() ?? null,
      // The same list is kept while the playlist's titles do not change.
      chapters: sameChapters(snapshot.chapters, chapters) ? snapshot.chapters : chapters,
    });
  };

  const pollListeners = (): void => {
    const concert = snapshot.concert;
    if (!concert) return;
    deps.listening(concert.id).then(
      (status) => {
        if (snapshot.concert?.id !== concert.id) return;
        const reconnecting = status.reconnecting === true;
        if (snapshot.listeners !== status.listeners || snapshot.reconnecting !== reconnecting) set({ listeners: status.listeners, reconnecting });
      },
      () => undefined,
    );
  };

  function syncTimers(): void {
    const ticking = isTicking(snapshot.phase);
    if (ticking && tickTimer === undefined) {
      tickTimer = setInterval(readMedia, TICK_MS);
    } else if (!ticking && tickTimer !== undefined) {
      clearInterval(tickTimer);
      tickTimer = undefined;
    }
    if (ticking && pollTimer === undefined) {
      pollTimer = setInterval(pollListeners, LISTENERS_POLL_MS);
      pollListeners();
    } else if (!ticking && pollTimer !== undefined) {
      clearInterval(pollTimer);
      pollTimer = undefined;
    }
  }

  const audio = (): HTMLAudioElement => {
    if (audioElement) return audioElement;
    const element = deps.createAudio();
    for (const name of ['play', 'pause', 'playing', 'volumechange', 'seeked'] as const) {
      element.addEventListener(name, readMedia);
    }
    audioElement = element;
    return element;
  };

  /** Ends the engine and any wait; the session's callbacks from before are ignored. */
  const detach = (): void => {
    generation += 1;
    clearTimeout(waitTimer);
    waitTimer = undefined;
    engine?.destroy();
    engine = null;
  };

  /** Whether the show has aired (so its playlist exists): asked before the playlist, so a
   * player waiting for the artist makes no request that can only answer 404. A failure asks
   * the playlist, whose answer says why. */
  const aired = async (): Promise<boolean> => {
    const concert = snapshot.concert;
    if (!concert) return true;
    try {
      return (await deps.listening(concert.id)).aired !== false;
    } catch {
      return true;
    }
  };

  const check = async (playlistUrl: string, mine: number): Promise<void> => {
    if (!(await aired())) {
      if (mine !== generation) return;
      session({ type: 'waiting' });
      retryLater(playlistUrl, mine);
      return;
    }
    if (mine !== generation) return;
    let playlist: PlaylistState;
    try {
      playlist = await deps.checkPlaylist(playlistUrl);
    } catch {
      playlist = { kind: 'error', status: 0 };
    }
    if (mine !== generation) return;
    if (playlist.kind === 'ready') {
      await start(playlistUrl, snapshot.masterUrl ?? playlistUrl);
    } else if (playlist.kind === 'denied') {
      detach();
      audio().pause();
      session({ type: 'denied', denial: playlist.denial });
    } else {
      session({ type: 'waiting' });
      retryLater(playlistUrl, mine);
    }
  };

  const retryLater = (playlistUrl: string, mine: number): void => {
    clearTimeout(waitTimer);
    waitTimer = setTimeout(() => {
      if (mine === generation) void check(playlistUrl, mine);
    }, WAIT_RETRY_MS);
  };

  /** Plays `sourceUrl` (the multivariant playlist); `playlistUrl` is what is probed when it
   * fails (its 403 says why). */
  const start = async (playlistUrl: string, sourceUrl: string): Promise<void> => {
    detach();
    const mine = generation;
    const current = (): boolean => mine === generation;
    session({ type: 'playing' });
    const element = audio();
    const attached = await deps.attach(element, sourceUrl, {
      onDenied: () => {
        if (!current()) return;
        detach();
        void check(playlistUrl, generation);
      },
      onMissing: () => {
        if (!current()) return;
        detach();
        session({ type: 'waiting' });
        retryLater(playlistUrl, generation);
      },
      onPlaylist: (live) => {
        if (current() && snapshot.live !== live) session({ type: 'playlist', live });
      },
      onFailed: () => {
        if (!current()) return;
        detach();
        session({ type: 'failed' });
      },
    }, snapshot.quality);
    if (!current()) {
      attached.destroy();
      return;
    }
    engine = attached;
    element.volume = snapshot.volume;
    element.muted = snapshot.muted;
    playQuietly(element);
  };

  /** The account's quality, read with each new session (another device may have changed
   * it); a choice made here meanwhile wins. */
  let chosenHere = false;
  const readQuality = (): Promise<void> =>
    deps.loadQuality().then(
      (quality) => {
        if (quality !== null && !chosenHere) set({ quality });
      },
      () => undefined,
    );

  const open = (concert: NowConcert): void => {
    detach();
    const mine = generation;
    set({ opening: true });
    session({ type: 'open' });
    chosenHere = false;
    Promise.all([deps.openSession(concert.id), readQuality()]).then(
      ([opened]) => opened,
    ).then(
      (opened) => {
        if (mine !== generation) return;
        set({ opening: false });
        session({ type: 'opened', playlistUrl: opened.playlistUrl, masterUrl: opened.masterUrl });
        void check(opened.playlistUrl, mine);
      },
      (error: unknown) => {
        if (mine !== generation) return;
        set({ opening: false });
        session({ type: 'refused', message: deps.refusalText(error) });
      },
    );
  };

  const stop = (): void => {
    if (snapshot.concert === null && engine === null && snapshot.phase.kind === 'idle') return;
    detach();
    if (audioElement) {
      audioElement.pause();
      audioElement.removeAttribute('src');
    }
    snapshot = { ...INITIAL, volume: snapshot.volume, muted: snapshot.muted, quality: snapshot.quality };
    syncTimers();
    emit();
  };

  const active = (): boolean => snapshot.phase.kind === 'playing' || snapshot.phase.kind === 'waiting' || snapshot.phase.kind === 'connecting';

  const store: PlayerStore = {
    subscribe: (listener) => {
      subscribers.add(listener);
      return () => {
        subscribers.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    play: (concert) => {
      if (snapshot.concert?.id === concert.id && active()) {
        // Fresher details (a renamed show) without a new session.
        set({ concert });
        store.resume();
        return;
      }
      snapshot = { ...INITIAL, concert, volume: snapshot.volume, muted: snapshot.muted, quality: snapshot.quality };
      if (audioElement) {
        audioElement.pause();
      }
      open(concert);
    },
    listen: () => {
      if (snapshot.concert) open(snapshot.concert);
    },
    toggle: () => {
      if (!audioElement || snapshot.phase.kind !== 'playing') return;
      if (audioElement.paused) playQuietly(audioElement);
      else audioElement.pause();
    },
    resume: () => {
      if (audioElement && snapshot.phase.kind === 'playing') playQuietly(audioElement);
    },
    pause: () => {
      audioElement?.pause();
    },
    seek: (time) => {
      if (!audioElement || !Number.isFinite(time)) return;
      audioElement.currentTime = time;
      readMedia();
    },
    skip: (delta) => {
      if (!audioElement) return;
      const range = seekableRange(audioElement);
      if (!range) return;
      store.seek(Math.min(range.end, Math.max(range.start, audioElement.currentTime + delta)));
    },
    backToLive: () => {
      if (!audioElement) return;
      const range = seekableRange(audioElement);
      const edge = engine?.liveEdge() ?? (range ? range.end - 1 : null);
      if (edge !== null) audioElement.currentTime = edge;
      playQuietly(audioElement);
      readMedia();
    },
    setVolume: (volume) => {
      const value = Math.min(1, Math.max(0, volume));
      const element = audio();
      element.volume = value;
      // Raising the volume of a muted player unmutes it, as every player does.
      const muted = snapshot.muted && value === 0;
      element.muted = muted;
      set({ volume: value, muted });
    },
    toggleMute: () => {
      const element = audio();
      element.muted = !snapshot.muted;
      set({ muted: !snapshot.muted });
    },
    setQuality: (quality) => {
      chosenHere = true;
      engine?.setQuality(quality);
      set({ quality });
      deps.saveQuality(quality).catch(() => undefined);
    },
    stop,
    audio,
  };
  return store;
}
