/**
 * The live socket's state machine, pure: `step(state, event)` answers the next state and
 * the effects to carry out (connect, send, deliver, wait, sign out). The socket client
 * (socket-client.ts) owns the WebSocket, the timers and the token; every decision is here,
 * where tests drive it without a network.
 */
import type { ChannelMessage, ChannelName, ClientMessage, Position, ServerMessage } from './socket-protocol';
import { CLOSE, isConcertChannel } from './socket-protocol';

/**
 * - `connecting`: the first attempt, not yet accepted;
 * - `live`: authenticated, messages flow;
 * - `reconnecting`: the socket closed, another attempt is due;
 * - `offline`: several attempts in a row failed (a proxy refusing upgrades?): the app polls,
 *   and attempts go on, further apart;
 * - `ended`: the server ended the session (signed out elsewhere): no more attempts;
 * - `stopped`: the tab no longer wants the socket.
 */
export type Phase = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'ended' | 'stopped';

/** How far a followed channel got on the current socket. */
export type ChannelState = 'pending' | 'subscribed' | 'refused';

export interface LiveState {
  phase: Phase;
  /** Attempts in a row that did not reach `ready`. */
  failures: number;
  /** The last message handled per channel, sent back as `since` on reconnect. */
  positions: Record<ChannelName, Position>;
  /** Concert channels (`event:<id>`, `chat:<id>`) the tab follows, with how many components follow each. */
  follows: Record<ChannelName, number>;
  /** What the current socket made of each followed concert channel. */
  channels: Record<ChannelName, ChannelState>;
  /** Ids of the notifications already delivered, oldest first (bounded). */
  seen: string[];
  /** The close code of the last socket that closed since the last `ready` (shown as why). */
  lastClose: number | null;
}

export type LiveEvent =
  | { type: 'start' }
  | { type: 'opened' }
  | { type: 'message'; message: ServerMessage }
  /** `random` in [0, 1) spreads the reconnections of many tabs (jitter). */
  | { type: 'closed'; code: number; random: number }
  | { type: 'retry' }
  | { type: 'follow'; channel: ChannelName }
  | { type: 'release'; channel: ChannelName }
  | { type: 'stop' };

export type Effect =
  | { type: 'connect' }
  /** Send `auth` with a valid access token and these positions. */
  | { type: 'authenticate'; since: Record<ChannelName, Position> }
  | { type: 'send'; message: ClientMessage }
  | { type: 'deliver'; message: ChannelMessage }
  /** Send a `retry` after `ms`; first get a new access token when `refreshToken`. */
  | { type: 'retryIn'; ms: number; refreshToken: boolean }
  /** Renew the access token (and re-`auth`) before this instant (ms since the epoch). */
  | { type: 'renewBefore'; at: number }
  | { type: 'signOut' }
  | { type: 'disconnect' };

export interface Step {
  state: LiveState;
  effects: Effect[];
}

/** Failed attempts in a row after which the dashboard says it is not live. */
export const OFFLINE_AFTER = 3;
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 30_000;
/** 4429: the account has too many sockets open; one may close meanwhile. */
export const TOO_MANY_WAIT_MS = 60_000;
/** Notification ids remembered, far more than a replay brings. */
export const SEEN_MAX = 500;

export const initialState = (): LiveState => ({ phase: 'stopped', failures: 0, positions: {}, follows: {}, channels: {}, seen: [], lastClose: null });

/** The wait before attempt `failures + 1`: doubling from 1 s up to 30 s, each drawn in
 * [half, whole] of it so that tabs cut off together do not come back together. */
export function backoffMs(failures: number, random: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling * (0.5 + random / 2));
}

function without<T>(record: Record<ChannelName, T>, key: ChannelName): Record<ChannelName, T> {
  const copy = { ...record };
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a copy keyed by channel name
  delete copy[key];
  return copy;
}

const isConcert = isConcertChannel;

/** Whether the app may rely on the socket for this channel (else it polls): live, and the
 * channel joined (a concert the server refused is not). */
export const isFollowed = (state: LiveState, channel: ChannelName): boolean =>
  state.phase === 'live' && (isConcert(channel) ? state.channels[channel] === 'subscribed' : channel in state.positions);

function subscribe(state: LiveState, channel: ChannelName): Effect {
  const since = state.positions[channel];
  return { type: 'send', message: since ? { type: 'subscribe', channel, since } : { type: 'subscribe', channel } };
}

export function step(state: LiveState, event: LiveEvent): Step {
  switch (event.type) {
    case 'start':
      if (state.phase !== 'stopped') return { state, effects: [] };
      return { state: { ...state, phase: 'connecting', failures: 0 }, effects: [{ type: 'connect' }] };
    case 'stop':
      return { state: { ...state, phase: 'stopped', channels: {} }, effects: [{ type: 'disconnect' }] };
    case 'opened': {
      // The account and staff channels resume through `auth`; concerts through `subscribe`.
      const since = Object.fromEntries(Object.entries(state.positions).filter(([channel]) => !isConcert(channel)));
      return { state, effects: [{ type: 'authenticate', since }] };
    }
    case 'retry':
      return state.phase === 'reconnecting' || state.phase === 'offline' ? { state, effects: [{ type: 'connect' }] } : { state, effects: [] };
    case 'closed':
      return closed(state, event.code, event.random);
    case 'follow': {
      const count = (state.follows[event.channel] ?? 0) + 1;
      const next = { ...state, follows: { ...state.follows, [event.channel]: count } };
      if (count > 1 || state.phase !== 'live') return { state: next, effects: [] };
      return { state: { ...next, channels: { ...next.channels, [event.channel]: 'pending' } }, effects: [subscribe(next, event.channel)] };
    }
    case 'release': {
      const count = state.follows[event.channel];
      if (count === undefined) return { state, effects: [] };
      if (count > 1) return { state: { ...state, follows: { ...state.follows, [event.channel]: count - 1 } }, effects: [] };
      const next = {
        ...state,
        follows: without(state.follows, event.channel),
        channels: without(state.channels, event.channel),
        positions: without(state.positions, event.channel),
      };
      const effects: Effect[] = state.phase === 'live' ? [{ type: 'send', message: { type: 'unsubscribe', channel: event.channel } }] : [];
      return { state: next, effects };
    }
    case 'message':
      return received(state, event.message);
  }
}

function closed(state: LiveState, code: number, random: number): Step {
  if (state.phase === 'stopped' || state.phase === 'ended') return { state, effects: [] };
  if (code === CLOSE.sessionEnded) {
    return { state: { ...state, phase: 'ended', channels: {} }, effects: [{ type: 'signOut' }] };
  }
  const failures = state.failures + 1;
  let ms = backoffMs(failures, random);
  if (code === CLOSE.tooManySockets) ms = Math.max(ms, TOO_MANY_WAIT_MS);
  const refreshToken = code === CLOSE.unauthorized || code === CLOSE.tokenExpired;
  const phase: Phase = failures >= OFFLINE_AFTER ? 'offline' : 'reconnecting';
  return { state: { ...state, phase, failures, channels: {}, lastClose: code }, effects: [{ type: 'retryIn', ms, refreshToken }] };
}

function received(state: LiveState, message: ServerMessage): Step {
  switch (message.type) {
    case 'ready': {
      const followed = Object.keys(state.follows);
      const next: LiveState = {
        ...state,
        phase: 'live',
        failures: 0,
        lastClose: null,
        channels: Object.fromEntries(followed.map((channel) => [channel, 'pending' as const])),
      };
      return { state: next, effects: [{ type: 'renewBefore', at: Date.parse(message.expiresAt) }, ...followed.map((channel) => subscribe(next, channel))] };
    }
    case 'reauthed':
      return { state, effects: [{ type: 'renewBefore', at: Date.parse(message.expiresAt) }] };
    case 'ping':
      return { state, effects: [{ type: 'send', message: { type: 'pong' } }] };
    case 'pong':
      return { state, effects: [] };
    case 'error': {
      const channel = message.channel;
      if (channel === undefined || !(channel in state.follows)) return { state, effects: [] };
      return { state: { ...state, channels: { ...state.channels, [channel]: 'refused' } }, effects: [] };
    }
    case 'subscribed': {
      // A concert released meanwhile: its late answer is not followed.
      if (isConcert(message.channel) && !(message.channel in state.follows)) return { state, effects: [] };
      // Recovered: the missed messages follow, and `offset` is where they end; the position
      // moves with them. Not recovered: follow from `offset`.
      const resumed = message.recovered && message.channel in state.positions;
      const next: LiveState = {
        ...state,
        positions: resumed ? state.positions : { ...state.positions, [message.channel]: { offset: message.offset, epoch: message.epoch } },
        channels: isConcert(message.channel) ? { ...state.channels, [message.channel]: 'subscribed' } : state.channels,
      };
      return { state: next, effects: [{ type: 'deliver', message }] };
    }
    default:
      return published(state, message);
  }
}

/** A channel's message: once each, in order; a notification once per id whatever its offset. */
function published(state: LiveState, message: Exclude<ChannelMessage, { type: 'subscribed' }>): Step {
  const { channel } = message;
  if (isConcert(channel) && !(channel in state.follows)) return { state, effects: [] };
  const seenAt = state.positions[channel];
  if (seenAt && seenAt.epoch === message.epoch && message.offset <= seenAt.offset) return { state, effects: [] };
  let next: LiveState = { ...state, positions: { ...state.positions, [channel]: { offset: message.offset, epoch: message.epoch } } };
  if (message.type === 'notification') {
    const id = message.notification.id;
    if (state.seen.includes(id)) return { state: next, effects: [] };
    next = { ...next, seen: [...state.seen, id].slice(-SEEN_MAX) };
  }
  return { state: next, effects: [{ type: 'deliver', message }] };
}
