/** Live audio for fans (docs/api-contract.md, "Live audio"): sessions, denials, the clock. */
import type { Schema } from '../../lib/api-types';

/** `playlistUrl`: a same-origin path, `/stream/<token>/index.m3u8` (the standard rendition,
 * probed for why a session ends); `masterUrl`: `/stream/<token>/master.m3u8`, every
 * rendition (what the player plays). */
export type StreamSession = Schema<'ListeningSession'>;
/** How the show stands for a listener: how many listen now. */
export type ListeningStatus = Schema<'ListeningStatus'>;

/** Why a stream URL answered 403 (the `Encore-Denied` header). */
export type Denial = 'invalid' | 'expired' | 'superseded';

export const DENIED_HEADER = 'Encore-Denied';

/** Seconds between two tries while the playlist answers 404 (the artist has not started). */
export const WAIT_RETRY_MS = 3000;

/** Behind the live edge by more than this, the player offers "Back to live". */
export const LIVE_EDGE_TOLERANCE_S = 3;

export function parseDenial(value: string | null): Denial {
  return value === 'expired' || value === 'superseded' ? value : 'invalid';
}

/** What the set is downloaded as: the AAC `.m4a` every show has, the `.flac` of a lossless
 * show (the listening status's `losslessSet`). */
export type SetFormat = 'm4a' | 'flac';

/** The set's download link signed by the session of `playlistUrl` (`/stream/<token>/…`): for
 * the `.m4a`, the same link the server answers as the session's `recordingUrl`, and the same
 * signature for the `.flac`; null for any other path. */
export function recordingUrlOf(eventId: string, playlistUrl: string, format: SetFormat = 'm4a'): string | null {
  const token = /^\/stream\/([^/]+)\//.exec(playlistUrl)?.[1];
  return token ? `/api/v1/events/${encodeURIComponent(eventId)}/recording.${format}?session=${token}` : null;
}

/** Numbers in the language's own digits (Persian ۱۲۳, the others 123). */
function integers(locale: string, minimumIntegerDigits = 1): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, { minimumIntegerDigits, useGrouping: false, maximumFractionDigits: 0 });
}

/** 75 → "1:15", 3725 → "1:02:05", in the locale's digits. */
export function formatClock(seconds: number, locale = 'en-GB'): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const one = integers(locale);
  const two = integers(locale, 2);
  return hours > 0 ? `${one.format(hours)}:${two.format(minutes)}:${two.format(secs)}` : `${one.format(minutes)}:${two.format(secs)}`;
}

/** Seconds behind live with one decimal ("1.0", Persian "۱٫۰"). */
export function formatLatency(seconds: number, locale = 'en-GB'): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.max(0, seconds));
}

/** A count in the locale's digits and grouping (1,234; ۱٬۲۳۴). */
export function formatCount(count: number, locale = 'en-GB'): string {
  return new Intl.NumberFormat(locale).format(count);
}

/** Where the player stands in the show, from the media element (and hls.js when used). */
export interface Position {
  /** Seconds since the start of the show. */
  elapsed: number;
  /** Seconds recorded so far (live) or the whole show (replay). */
  duration: number;
  /** Start of the seekable range, in media time. */
  start: number;
  /** End of the seekable range, in media time. */
  end: number;
  /** Live and close enough to the edge to call it live. */
  atLiveEdge: boolean;
}

export function position(
  currentTime: number,
  range: { start: number; end: number } | null,
  live: boolean,
  liveEdge: number | null,
): Position {
  const start = range?.start ?? 0;
  const end = range?.end ?? currentTime;
  const edge = liveEdge ?? end;
  return {
    elapsed: Math.max(0, currentTime - start),
    duration: Math.max(0, end - start),
    start,
    end,
    atLiveEdge: live && edge - currentTime <= LIVE_EDGE_TOLERANCE_S,
  };
}

/** Where a listening session stands, as the player shows it. */
export type Phase =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'waiting' }
  | { kind: 'playing' }
  | { kind: 'denied'; denial: Denial }
  | { kind: 'refused'; message: string }
  | { kind: 'failed' };

export interface SessionState {
  /** The session's playlist URL, once the server opened one. */
  playlistUrl: string | null;
  /** The same session's multivariant playlist (absent from an older server). */
  masterUrl: string | null;
  phase: Phase;
  /** Whether the playlist is live (false: the replay, with EXT-X-ENDLIST); null until read. */
  live: boolean | null;
}

export type SessionAction =
  /** The fan pressed Listen (again). */
  | { type: 'open' }
  | { type: 'opened'; playlistUrl: string; masterUrl?: string | null }
  /** The server would not open a session (not yet open, refunded, …), in its words. */
  | { type: 'refused'; message: string }
  /** The playlist answered 404: the artist has not started. */
  | { type: 'waiting' }
  | { type: 'playing' }
  | { type: 'playlist'; live: boolean }
  | { type: 'denied'; denial: Denial }
  | { type: 'failed' };

export const INITIAL_SESSION: SessionState = { playlistUrl: null, masterUrl: null, phase: { kind: 'idle' }, live: null };

/** The listening session's state machine (the `useStreamSession` hook runs its effects). */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'open':
      return { ...state, phase: { kind: 'connecting' } };
    case 'opened':
      return { playlistUrl: action.playlistUrl, masterUrl: action.masterUrl ?? null, phase: { kind: 'connecting' }, live: null };
    case 'refused':
      return { ...state, playlistUrl: null, masterUrl: null, phase: { kind: 'refused', message: action.message } };
    case 'waiting':
      return { ...state, phase: { kind: 'waiting' } };
    case 'playing':
      return { ...state, phase: { kind: 'playing' } };
    case 'playlist':
      return { ...state, live: action.live };
    case 'denied':
      return { ...state, phase: { kind: 'denied', denial: action.denial } };
    case 'failed':
      return { ...state, phase: { kind: 'failed' } };
  }
}

/** The media element is read for the controls while something may play. */
export function isTicking(phase: Phase): boolean {
  return phase.kind === 'playing' || phase.kind === 'waiting';
}

/** What is left of a replay, in whole minutes (a fresh replay reads "23 h 59 min", and the
 * last seconds "1 min", never "0 min"): words, not a ticking clock. */
export function timeLeft(ms: number): { days: number; hours: number; minutes: number } {
  const total = ms > 0 ? Math.max(1, Math.floor(ms / 60_000)) : 0;
  return { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60), minutes: total % 60 };
}

/** The listener's choice of rendition (kept with the account): `auto` lets hls.js switch
 * by bandwidth; the others pin a rendition of the show's multivariant playlist. */
export type Quality = 'auto' | 'saver' | 'standard' | 'high' | 'lossless';
export type RenditionName = Exclude<Quality, 'auto'>;

export const QUALITIES: readonly Quality[] = ['auto', 'saver', 'standard', 'high', 'lossless'];

export function parseQuality(value: string | null | undefined): Quality {
  return QUALITIES.find((quality) => quality === value) ?? 'auto';
}

/** One rendition of the show as hls.js lists it (docs/hifi.md, "The ladder"). */
export interface Rendition {
  /** hls.js's level index. */
  level: number;
  name: RenditionName;
  codec: 'aac' | 'flac';
  /** The AAC bit rate class in kbit/s (48, 128, 192…); null for FLAC. */
  kbps: number | null;
  /** Read from the rendition's init segment once loaded; null before. */
  sampleRate: number | null;
}

/** The server's rendition directories (`/stream/{token}/{dir}/…`) and their names. */
const DIRECTORIES: Record<string, RenditionName> = { saver: 'saver', standard: 'standard', source: 'high', lossless: 'lossless' };

/** AAC encoders' usual bit rates: the multivariant's AVERAGE-BANDWIDTH counts the fMP4
 * boxes too (≈ 5 % more), so the label names the class it is closest to. */
const AAC_CLASSES = [32, 48, 64, 96, 128, 160, 192, 224, 256, 320];

export function aacClass(bitsPerSecond: number): number | null {
  if (!Number.isFinite(bitsPerSecond) || bitsPerSecond <= 0) return null;
  const kbps = bitsPerSecond / 1000;
  return AAC_CLASSES.reduce((best, next) => (Math.abs(next - kbps) < Math.abs(best - kbps) ? next : best));
}

/** A level of the multivariant playlist as a rendition, by its directory (and a FLAC codec
 * anywhere); null for a level this player does not know. */
export function renditionOf(level: { uri: string; codecs?: string; bitrate: number; averageBitrate?: number }, index: number): Rendition | null {
  const directory = /\/stream\/[^/]+\/([^/]+)\//.exec(new URL(level.uri, 'http://x').pathname)?.[1] ?? '';
  const flac = /\bflac\b/i.test(level.codecs ?? '');
  const name = flac ? 'lossless' : DIRECTORIES[directory];
  if (!name) return null;
  return {
    level: index,
    name,
    codec: flac ? 'flac' : 'aac',
    kbps: flac ? null : aacClass(level.averageBitrate || level.bitrate),
    sampleRate: null,
  };
}

/** What the menu offers: Auto, then each rendition the show has (in the ladder's order),
 * Lossless only where this browser plays FLAC. */
export function qualityChoices(renditions: readonly Rendition[], playsFlac: boolean): Quality[] {
  const has = new Set(renditions.filter((r) => r.codec === 'aac' || playsFlac).map((r) => r.name));
  return QUALITIES.filter((quality) => quality === 'auto' || has.has(quality));
}

/** The hls.js level for a choice: -1 (automatic) for Auto or a rendition the show lacks. */
export function levelFor(quality: Quality, renditions: readonly Rendition[]): number {
  return renditions.find((r) => r.name === quality)?.level ?? -1;
}

/** The sample rate of an fMP4 init segment's first audio sample entry (`mp4a`, `fLaC`,
 * `Opus`): ISO 14496-12 AudioSampleEntry, 16.16 fixed point 28 bytes into the entry's body. */
export function initSampleRate(init: Uint8Array): number | null {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  for (let at = 4; at + 32 <= init.length; at += 1) {
    const kind = String.fromCharCode(...init.subarray(at, at + 4));
    if (kind !== 'mp4a' && kind !== 'fLaC' && kind !== 'Opus') continue;
    // The box's size sits just before its type; an entry is at least 36 bytes.
    if (view.getUint32(at - 4) < 36) continue;
    const rate = view.getUint16(at + 4 + 24);
    if (rate > 0) return rate;
  }
  return null;
}

/** A live listener this far (s) behind hls.js's target latency is brought back to it. */
export const CATCH_UP_FROM_S = 0.06;
/** …until this close to it. */
export const CATCH_UP_UNTIL_S = 0.02;
/** Further behind than this, being behind is the listener's choice (a pause, a seek back):
 * left alone ("Go live" takes them to the edge). */
export const LIVE_RANGE_S = 2;
/** Buffered audio to spare beyond the catch-up itself, so speeding up never drains it. */
const CATCH_UP_SPARE_S = 0.1;

/** The playback rate for a live listener `late` seconds behind hls.js's target latency with
 * `ahead` seconds buffered, playing at `rate` now. hls.js speeds up only with over a second
 * buffered ahead, which a player held PART-HOLD-BACK (≈ 0.77 s) behind the edge never has:
 * wherever a start settled (up to a part late) it stayed, and glass-to-ear with it. 1.1×
 * (1.25× when a part or more late: a stall) with pitch kept, until within
 * `CATCH_UP_UNTIL_S`. */
export function catchUpRate(late: number, ahead: number, rate: number): number {
  if (!Number.isFinite(late) || !Number.isFinite(ahead) || late > LIVE_RANGE_S) return 1;
  const from = rate > 1 ? CATCH_UP_UNTIL_S : CATCH_UP_FROM_S;
  if (late <= from || ahead < late + CATCH_UP_SPARE_S) return 1;
  return late > 0.25 ? 1.25 : 1.1;
}
