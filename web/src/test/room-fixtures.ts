// The live room's shapes as the server sends them, for the room's tests: each builder makes
// an ordinary one, `extra` on top.
import type { ChatMessage, ChatReport, ChatRoom, ModerationEntry } from '../features/room/model';
import type { RoomView } from '../features/room/use-room';

/** When the fixtures' show happens: messages, reports and log lines, and the views' clock. */
export const SHOW_AT = '2030-01-01T12:00:00Z';

/** A fan's message ("Ann B.", no badge) at one second of the show. */
export const chatMessage = (id: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  eventId: 'c1',
  accountId: `a-${id}`,
  author: 'Ann B.',
  badge: null,
  kind: 'message',
  tip: null,
  text: `text ${id}`,
  mediaTime: 1000,
  postedAt: SHOW_AT,
  ...extra,
});

/** An open room read by a fan ("me"); `you` changes the reader (a moderator, a muted fan). */
export const chatRoom = (extra: Partial<ChatRoom> = {}, you: Partial<ChatRoom['you']> = {}): ChatRoom => ({
  pinned: null,
  slowModeSeconds: 0,
  closed: false,
  postingOpen: true,
  postingUntil: null,
  you: { accountId: 'me', badge: null, moderator: false, mutedUntil: null, muted: false, ...you },
  ...extra,
});

/** A moderator's room: the artist's. */
export const moderatorRoom = (extra: Partial<ChatRoom> = {}): ChatRoom => chatRoom(extra, { accountId: 'artist', badge: 'artist', moderator: true });

/** Ben's report of `message`. */
export const chatReport = (id: string, message: ChatMessage, extra: Partial<ChatReport> = {}): ChatReport => ({
  id,
  message,
  reporterName: 'Ben C.',
  createdAt: SHOW_AT,
  ...extra,
});

/** A line of the moderation log: the artist ("Aria V.") did `action`. */
export const moderationEntry = (id: string, action: string, extra: Partial<ModerationEntry> = {}): ModerationEntry => ({
  id,
  actorId: 'artist',
  actorName: 'Aria V.',
  action,
  accountName: null,
  accountId: null,
  messageId: null,
  detail: null,
  at: SHOW_AT,
  ...extra,
});

/** What `useRoom` answers for `messages` in `room`, pushed by the socket, not playing the show. */
export function roomView(messages: ChatMessage[], room: ChatRoom, extra: Partial<RoomView> = {}): RoomView {
  return {
    eventId: 'c1',
    status: 'ready',
    error: null,
    room,
    messages,
    visible: messages,
    position: null,
    meter: { applause: 3, heart: 1, fire: 0, total: 4 },
    pushed: true,
    polling: false,
    abilities: { post: room.postingOpen, react: room.postingOpen, moderate: room.you.moderator, reason: room.postingOpen ? null : 'readOnly' },
    deleted: [],
    now: Date.parse(SHOW_AT) + 5 * 60_000,
    record: () => undefined,
    ...extra,
  };
}
