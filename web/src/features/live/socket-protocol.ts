/**
 * The messages of the dashboard's WebSocket, `GET /api/v1/ws` (docs/api-contract.md, "Live
 * over WebSocket"). OpenAPI cannot type a socket, so the frames are declared here; their
 * payloads are the document's own types.
 */
import type { Schema } from '../../lib/api-types';
import type { ChatFrame, ChatReportDismissedFrame, ChatReportFrame } from '../room/model';

/** Where a channel stands: the last offset handled, in the channel's epoch. */
export interface Position {
  offset: number;
  epoch: string;
}

/** `account:<id>`, `staff`, `event:<id>` (a concert's live figures) or `chat:<id>` (its room). */
export type ChannelName = string;

export const eventChannel = (eventId: string): ChannelName => `event:${eventId}`;
export const chatChannel = (eventId: string): ChannelName => `chat:${eventId}`;

/** A concert's channels are followed by subscribing, while a component wants them; the
 * account's and staff's come with `auth`. */
export const isConcertChannel = (channel: ChannelName): boolean => channel.startsWith('event:') || channel.startsWith('chat:');

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
/** The live room's frames (docs/api-contract.md, "The live room"): on `chat:<id>`, and
 * `chat_report` and `chat_report_dismissed` on `event:<id>`. */
export type ChatChannelMessage = Published & ChatFrame;
export type ChatReportMessage = Published & (ChatReportFrame | ChatReportDismissedFrame);
/** A tip paid, on `event:<id>` (the artist's live panel; docs/api-contract.md, "Tips during the show"). */
export type TipPaidMessage = Published & { type: 'tip_paid'; tip: Schema<'Tip'> };

/** What a channel's followers receive: its messages, and each `subscribed` (with
 * `recovered: false` they refetch the channel's state over HTTP). */
export type ChannelMessage = NotificationMessage | ActivityMessage | LiveStatusMessage | ChatChannelMessage | ChatReportMessage | TipPaidMessage | SubscribedMessage;

export type ServerMessage =
  | ChannelMessage
  | { type: 'ready'; accountId: string; expiresAt: string; channels: ChannelName[] }
  | { type: 'reauthed'; expiresAt: string }
  | { type: 'error'; code: string; message: string; channel?: ChannelName }
  | { type: 'ping' }
  | { type: 'pong' };

const SERVER_TYPES = new Set([
  'notification',
  'activity',
  'live_status',
  'chat_message',
  'chat_deleted',
  'chat_room',
  'chat_reactions',
  'chat_report',
  'chat_report_dismissed',
  'tip_paid',
  'subscribed',
  'ready',
  'reauthed',
  'error',
  'ping',
  'pong',
]);

/** A frame as a server message, or null when it is not one (never thrown: a newer server may
 * send types this client does not know). */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return serverMessage(value);
}

function serverMessage(value: unknown): ServerMessage | null {
  if (typeof value !== 'object' || value === null) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && SERVER_TYPES.has(type) ? (value as ServerMessage) : null;
}

/** A frame's messages, in order: a room's `batch` (`{"type":"batch","messages":[…]}`,
 * gathered over 250 ms) is the messages it carries; any other frame is itself. What this
 * client does not know is left out. */
export function parseServerFrame(text: string): ServerMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'batch') {
    const messages = (value as { messages?: unknown }).messages;
    if (!Array.isArray(messages)) return [];
    return messages.map(serverMessage).filter((m): m is ServerMessage => m !== null);
  }
  const message = serverMessage(value);
  return message ? [message] : [];
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

/** The reason words of the close codes (the server's, and `heartbeat` for our silence). */
const REASONS: Record<number, string> = {
  [CLOSE.badMessage]: 'bad_message',
  [CLOSE.unauthorized]: 'unauthorized',
  [CLOSE.tokenExpired]: 'token_expired',
  [CLOSE.heartbeat]: 'heartbeat',
  [CLOSE_SILENT]: 'heartbeat',
  [CLOSE.tooManySockets]: 'too_many_sockets',
  [CLOSE.slowConsumer]: 'slow_consumer',
  [CLOSE.goingAway]: 'going_away',
};

/** The reason word of a close code, or null for codes without one (a network loss). */
export const closeReason = (code: number | null): string | null => (code === null ? null : (REASONS[code] ?? null));

/** The socket's address on the page's own origin. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>, path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}
