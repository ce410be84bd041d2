/**
 * Plays a session's multivariant LL-HLS playlist in an <audio> element: hls.js (loaded on
 * demand, never in the first bundle) or Safari's native HLS. With hls.js the listener's
 * quality pins a rendition (or leaves hls.js to switch by bandwidth). Reports what the player must act on: a 403 (the
 * caller asks the playlist why), a 404 (the artist has not started), the end of the show.
 */
import type { HlsConfig } from 'hls.js';
import { logger } from '../../lib/logger';
import type { Chapter } from './chapters';
import { chaptersFrom } from './chapters';
import type { Quality, Rendition } from './model';
import { catchUpRate, initSampleRate, levelFor, renditionOf } from './model';

export interface StreamEvents {
  /** A stream URL answered 403: the session was superseded, expired or revoked. */
  onDenied: () => void;
  /** The playlist answers 404: the show has not started (or not yet for this server). */
  onMissing: () => void;
  /** The playlist was read: `live` is false once it carries EXT-X-ENDLIST. */
  onPlaylist: (live: boolean) => void;
  /** Nothing more to try. */
  onFailed: (detail: string) => void;
}

export interface StreamEngine {
  /** Media time of the live edge the player aims at (hls.js), else null. */
  liveEdge: () => number | null;
  /** hls.js's own estimate of the distance to the live edge, in seconds. */
  latency: () => number | null;
  /** The song titles of the playlist read last (its date ranges), on the media timeline. */
  chapters: () => Chapter[];
  /** The show's renditions this player can play (none with native HLS: Safari chooses). */
  renditions: () => Rendition[];
  /** The rendition playing now, once known. */
  playing: () => Rendition | null;
  /** Pin a rendition (or Auto), from the playing position on, without a new session. */
  setQuality: (quality: Quality) => void;
  destroy: () => void;
}

/** An engine with nothing to report (unsupported browser, native HLS). */
const QUIET = { liveEdge: () => null, latency: () => null, chapters: () => [], renditions: () => [], playing: () => null, setQuality: () => undefined };

/** Tuned for the server's ≈ 1 s segments and ≈ 250 ms parts: hold back PART-HOLD-BACK
 * (≈ 0.77 s) and keep the whole show seekable. Catching up when late is ours
 * (`catchUpRate`): hls.js's own (`maxLiveSyncPlaybackRate` above 1) waits for more buffer
 * than a low-latency player has, and would reset our rate on every time update. */
export const HLS_CONFIG: Partial<HlsConfig> = {
  lowLatencyMode: true,
  maxLiveSyncPlaybackRate: 1,
  backBufferLength: Infinity,
  // Song titles are read from the playlist's date ranges (`chapters`): no metadata text
  // track, whose `data:` source the page's Content-Security-Policy refuses anyway.
  enableDateRangeMetadataCues: false,
  // Blocking playlist reloads wait up to a few part durations; a publisher that reconnects
  // may leave a request open for longer.
  playlistLoadPolicy: {
    default: {
      maxTimeToFirstByteMs: 10_000,
      maxLoadTimeMs: 20_000,
      timeoutRetry: { maxNumRetry: 6, retryDelayMs: 0, maxRetryDelayMs: 0 },
      errorRetry: { maxNumRetry: 6, retryDelayMs: 1000, maxRetryDelayMs: 8000 },
    },
  },
};

const HLS_MIME = 'application/vnd.apple.mpegurl';
const MAX_NETWORK_RETRIES = 5;
/** How long after a rendition switch the player leaves its rate alone. */
const SWITCH_SETTLE_MS = 3000;

/** Whether this browser's Media Source plays FLAC in fMP4 (the Lossless rendition). */
export function playsFlac(): boolean {
  try {
    return typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported('audio/mp4; codecs="flac"');
  } catch {
    return false;
  }
}

export async function attachStream(audio: HTMLAudioElement, playlistUrl: string, events: StreamEvents, quality: Quality = 'auto'): Promise<StreamEngine> {
  const { default: Hls } = await import('hls.js/light');
  if (!Hls.isSupported() && audio.canPlayType(HLS_MIME)) return attachNative(audio, playlistUrl, events);
  if (!Hls.isSupported()) {
    events.onFailed('unsupported');
    return { ...QUIET, destroy: () => undefined };
  }
  const hls = new Hls(HLS_CONFIG);
  let networkRetries = 0;
  let destroyed = false;
  let renditions: Rendition[] = [];
  let wanted = quality;
  const sampleRates = new Map<number, number>();
  hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
    renditions = data.levels.flatMap((level, index) => renditionOf(level, index) ?? []);
    // hls.js drops the levels its Media Source cannot play; FLAC is checked again here.
    if (!playsFlac()) renditions = renditions.filter((r) => r.codec !== 'flac');
    const level = levelFor(wanted, renditions);
    // Nothing is buffered yet: start on the chosen rendition.
    if (level >= 0) hls.currentLevel = level;
  });
  // Each rendition's init segment says its sample rate ("Lossless · FLAC 48 kHz"). hls.js
  // announces no init segment's loading: its bytes hang on each media fragment loaded after.
  hls.on(Hls.Events.FRAG_LOADED, (_event, data) => {
    const init = data.frag.initSegment?.data;
    if (!init || sampleRates.has(data.frag.level)) return;
    const rate = initSampleRate(init);
    if (rate !== null) sampleRates.set(data.frag.level, rate);
  });
  hls.on(Hls.Events.LEVEL_LOADED, (_event, data) => {
    networkRetries = 0;
    events.onPlaylist(data.details.live);
  });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (destroyed) return;
    const code = data.response?.code;
    if (code === 403) {
      events.onDenied();
      return;
    }
    if (code === 404 && (data.details === Hls.ErrorDetails.MANIFEST_LOAD_ERROR || data.details === Hls.ErrorDetails.LEVEL_LOAD_ERROR)) {
      events.onMissing();
      return;
    }
    if (!data.fatal) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
      hls.recoverMediaError();
    } else if (data.type === Hls.ErrorTypes.NETWORK_ERROR && networkRetries < MAX_NETWORK_RETRIES) {
      networkRetries += 1;
      setTimeout(() => {
        if (!destroyed) hls.startLoad();
      }, 1000 * networkRetries);
    } else {
      logger.warn('stream failed', data.details);
      events.onFailed(data.details);
    }
  });
  // Back to the target latency when late: on every time update (about four a second) of
  // a live show, never for a replay.
  // A switch drops what is buffered ahead: no catching up until the new rendition plays.
  let switchedAt = 0;
  hls.on(Hls.Events.LEVEL_SWITCHING, () => {
    switchedAt = performance.now();
    audio.playbackRate = 1;
  });
  const catchUp = (): void => {
    if (performance.now() - switchedAt < SWITCH_SETTLE_MS) return;
    const live = hls.latestLevelDetails?.live === true;
    const target = hls.targetLatency;
    if (!live || audio.paused || target === null || !Number.isFinite(hls.latency)) {
      if (audio.playbackRate !== 1) audio.playbackRate = 1;
      return;
    }
    const now = audio.currentTime;
    const range = Array.from({ length: audio.buffered.length }, (_, i) => i).find((i) => audio.buffered.start(i) <= now && now <= audio.buffered.end(i));
    const ahead = range === undefined ? 0 : audio.buffered.end(range) - now;
    const rate = catchUpRate(hls.latency - target, ahead, audio.playbackRate);
    if (rate !== audio.playbackRate) audio.playbackRate = rate;
  };
  audio.addEventListener('timeupdate', catchUp);
  hls.attachMedia(audio);
  hls.loadSource(playlistUrl);
  return {
    liveEdge: () => hls.liveSyncPosition,
    latency: () => (Number.isFinite(hls.latency) ? hls.latency : null),
    // hls.js keeps the date ranges of every playlist it reads (a delta update's skipped part
    // included, less RECENTLY-REMOVED-DATERANGES), each placed by the program date time.
    chapters: () => chaptersFrom(Object.values(hls.latestLevelDetails?.dateRanges ?? {})),
    renditions: () => renditions,
    playing: () => {
      const found = renditions.find((r) => r.level === hls.currentLevel);
      return found ? { ...found, sampleRate: sampleRates.get(found.level) ?? null } : null;
    },
    setQuality: (next) => {
      wanted = next;
      // An immediate switch: hls.js drops what is buffered ahead and loads the new
      // rendition from the playing position; the clock stands still for less than a part
      // (e2e/quality.test.mjs). `loadLevel` (keep the buffer, switch after it) left hls.js
      // idle after a switch to the source rendition until a later segment was listed: 0.4
      // to 1.3 s of silence. -1 is hls.js's automatic choice.
      hls.currentLevel = levelFor(next, renditions);
    },
    destroy: () => {
      destroyed = true;
      audio.removeEventListener('timeupdate', catchUp);
      audio.playbackRate = 1;
      hls.destroy();
      audio.removeAttribute('src');
      audio.load();
    },
  };
}

/** Safari without MSE: the browser fetches the (multivariant) playlist itself and chooses
 * the rendition; a failure is probed by the caller. Its date ranges are not read here, so
 * it shows no titles. */
function attachNative(audio: HTMLAudioElement, playlistUrl: string, events: StreamEvents): StreamEngine {
  const onError = (): void => {
    events.onDenied();
  };
  const onMeta = (): void => {
    events.onPlaylist(!Number.isFinite(audio.duration));
  };
  audio.addEventListener('error', onError);
  audio.addEventListener('loadedmetadata', onMeta);
  audio.addEventListener('durationchange', onMeta);
  audio.src = playlistUrl;
  return {
    ...QUIET,
    destroy: () => {
      audio.removeEventListener('error', onError);
      audio.removeEventListener('loadedmetadata', onMeta);
      audio.removeEventListener('durationchange', onMeta);
      audio.removeAttribute('src');
      audio.load();
    },
  };
}
