/** Live audio for fans (docs/api-contract.md, "Live audio"): sessions, denials, the clock. */
import type { Schema } from '../../lib/api-types';
import type { AccessState, EncoreEvent } from '../events/model';

/** `playlistUrl`: a same-origin path, `/stream/<token>/index.m3u8`. */
export type StreamSession = Schema<'ListeningSession'>;

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

const LISTENABLE: readonly AccessState[] = ['upcoming', 'live', 'replay'];

/** The fan may open the player: a ticket (or a pass) and the concert not over for them. */
export function canListen(event: Pick<EncoreEvent, 'owned' | 'access'>): boolean {
  return event.owned && LISTENABLE.includes(event.access);
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return hours > 0 ? `${String(hours)}:${pad(minutes)}:${pad(secs)}` : `${String(minutes)}:${pad(secs)}`;
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
  phase: Phase;
  /** Whether the playlist is live (false: the replay, with EXT-X-ENDLIST); null until read. */
  live: boolean | null;
}

export type SessionAction =
  /** The fan pressed Listen (again). */
  | { type: 'open' }
  | { type: 'opened'; playlistUrl: string }
  /** The server would not open a session (not yet open, refunded, …), in its words. */
  | { type: 'refused'; message: string }
  /** The playlist answered 404: the artist has not started. */
  | { type: 'waiting' }
  | { type: 'playing' }
  | { type: 'playlist'; live: boolean }
  | { type: 'denied'; denial: Denial }
  | { type: 'failed' };

export const INITIAL_SESSION: SessionState = { playlistUrl: null, phase: { kind: 'idle' }, live: null };

/** The listening session's state machine (the `useStreamSession` hook runs its effects). */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'open':
      return { ...state, phase: { kind: 'connecting' } };
    case 'opened':
      return { playlistUrl: action.playlistUrl, phase: { kind: 'connecting' }, live: null };
    case 'refused':
      return { ...state, playlistUrl: null, phase: { kind: 'refused', message: action.message } };
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
