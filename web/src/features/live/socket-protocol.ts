/**
 * The messages of the dashboard's WebSocket, `GET /api/v1/ws` (docs/api-contract.md, "Live
 * over WebSocket"). OpenAPI cannot type a socket, so the frames are declared here; their
 * payloads are the document's own types.
 */
import type { Schema } from '../../lib/api-types';

/** Where a channel stands: the last offset handled, in the channel's epoch. */
export interface Position {
  offset: number;
  epoch: string;
}

/** `account:<id>`, `staff` or `event:<id>`. */
export type ChannelName = string;

export const eventChannel = (eventId: string): ChannelName => `event:${eventId}`;

export type ClientMessage =
  | { type: 'auth'; token: string; since?: Record<ChannelName, Position> }
  | { type: 'subscribe'; channel: ChannelName; since?: Position }
  | { type: 'unsubscribe'; channel: ChannelName }
  | { type: 'ping' }
  | { type: 'pong' };

interface Published extends Position {
  channel: ChannelName;
}

export type NotificationMessage = Published & { type: 'notification'; notification: Schema<'Notification'> };
export type ActivityMessage = Published & { type: 'activity'; activity: Schema<'Activity'> };
export type LiveStatusMessage = Published & { type: 'live_status'; eventId: string; status: Schema<'LiveStatus'> };
export type SubscribedMessage = Published & { type: 'subscribed'; recovered: boolean };

/** What a channel's followers receive: its messages, and each `subscribed` (with
 * `recovered: false` they refetch the channel's state over HTTP). */
export type ChannelMessage = NotificationMessage | ActivityMessage | LiveStatusMessage | SubscribedMessage;

export type ServerMessage =
  | ChannelMessage
  | { type: 'ready'; accountId: string; expiresAt: string; channels: ChannelName[] }
  | { type: 'reauthed'; expiresAt: string }
  | { type: 'error'; code: string; message: string; channel?: ChannelName }
  | { type: 'ping' }
  | { type: 'pong' };

const SERVER_TYPES = new Set(['notification', 'activity', 'live_status', 'subscribed', 'ready', 'reauthed', 'error', 'ping', 'pong']);

/** A frame as a server message, or null when it is not one (never thrown: a newer server may
 * send types this client does not know). */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && SERVER_TYPES.has(type) ? (value as ServerMessage) : null;
}

/** The close codes of the protocol's "Closing" table (1001: the server is going away). */
export const CLOSE = {
  badMessage: 4400,
  unauthorized: 4401,
  sessionEnded: 4403,
  tokenExpired: 4408,
  heartbeat: 4409,
  tooManySockets: 4429,
  slowConsumer: 4503,
  goingAway: 1001,
} as const;

/** The code this client closes with when the server has gone silent (4000–4999 are free). */
export const CLOSE_SILENT = 4000;

/** The reason word of a close code (the server's words, and `silent` for ours), or null for
 * codes without one (a network loss). */
export function closeReason(code: number | null): string | null {
  switch (code) {
    case CLOSE.badMessage:
      return 'bad_message';
    case CLOSE.unauthorized:
      return 'unauthorized';
    case CLOSE.tokenExpired:
      return 'token_expired';
    case CLOSE.heartbeat:
    case CLOSE_SILENT:
      return 'heartbeat';
    case CLOSE.tooManySockets:
      return 'too_many_sockets';
    case CLOSE.slowConsumer:
      return 'slow_consumer';
    case CLOSE.goingAway:
      return 'going_away';
    default:
      return null;
  }
}

/** The socket's address on the page's own origin. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>, path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}
