/**
 * The live room (docs/api-contract.md, "The live room: chat and reactions"): its shapes and
 * the rules the web app follows, pure. A shape the server's document gives as it is (the
 * reactions, the restrictions, the badges) is the document's own type; the others are
 * written here by hand, as the contract names them (a null stays a null, where the document
 * only says "optional"), and the end of this file holds them against the document, so a
 * server change fails `tsc`.
 *
 * Every message and reaction carries `mediaTime`, the milliseconds on the show's timeline
 * its author was hearing; a listener's player shows it once its own position gets there
 * (everything at once when it is not playing the show).
 */
import type { Schema } from '../../lib/api-types';

export type ChatBadge = Schema<'Badge'>;

/** One message of the room; `author` is the first name and the initial ("Ann B."). */
export interface ChatMessage {
  id: string;
  eventId: string;
  accountId: string;
  author: string;
  badge: ChatBadge | null;
  /** `tip`: said by the room when its author's tip was paid (shown highlighted); its `text`
   * is the tipper's message, possibly empty. */
  kind: Schema<'ChatKind'>;
  tip: Schema<'ChatTip'> | null;
  text: string;
  /** Milliseconds from the show's first sample. */
  mediaTime: number;
  postedAt: string;
}

/** The reader in the room. `muted`: a moderator's timeout keeps them from posting, until
 * `mutedUntil` (null: the rest of the show). */
export interface ChatYou {
  accountId: string;
  badge: ChatBadge | null;
  moderator: boolean;
  mutedUntil: string | null;
  muted: boolean;
}

/** The room as its moderators set it, and what the reader may do in it. */
export interface ChatRoom {
  pinned: ChatMessage | null;
  slowModeSeconds: number;
  closed: boolean;
  /** From the doors until an hour after the show ended; read-only after. */
  postingOpen: boolean;
  postingUntil: string | null;
  you: ChatYou;
}

/** What the moderators change and `chat_room` carries. */
export type RoomSettings = Pick<ChatRoom, 'pinned' | 'slowModeSeconds' | 'closed'>;

/** `GET /events/{id}/chat`: a page of messages by media time, the room, and the next page's
 * `after` (null on the last page). */
export interface ChatPage {
  messages: ChatMessage[];
  room: ChatRoom;
  next: string | null;
}

/** `PATCH /events/{id}/chat/room` (any subset). */
export interface RoomChange {
  pinnedMessageId?: string | null;
  slowModeSeconds?: number;
  closed?: boolean;
}

export type ReactionKind = Schema<'ReactionKind'>;
/** Every reaction, in the buttons' order (`AllKinds` below: none left out). */
export const REACTION_KINDS = ['applause', 'heart', 'fire'] as const satisfies readonly ReactionKind[];
export type ReactionCounts = Schema<'Counts'>;

/** `GET /events/{id}/chat/reactions`: the room's reactions per second of media time. */
export type ReactionSecond = Schema<'ReactionSecond'>;

export type RestrictionKind = Schema<'RestrictionKind'>;
/** Every restriction, in the menu's order (`AllKinds` below: none left out). */
export const RESTRICTION_KINDS = ['timeout_5m', 'timeout_1h', 'timeout_show', 'ban'] as const satisfies readonly RestrictionKind[];

/** A reader's report of a message: sent live to the concert's managers (`chat_report`), and
 * listed while open (`GET /events/{id}/chat/reports`: neither dismissed nor of a deleted
 * message). */
export interface ChatReport {
  id: string;
  message: ChatMessage;
  reporterName: string;
  createdAt: string;
}

/** One line of the room's moderation log. */
export interface ModerationEntry {
  id: string;
  actorId: string;
  actorName: string;
  action: string;
  accountId: string | null;
  /** Whom it was about, as the room shows names, when it names an account. */
  accountName: string | null;
  messageId: string | null;
  detail: string | null;
  at: string;
}

/** The room's frames on the socket: `chat:<id>`, and `chat_report` and
 * `chat_report_dismissed` on `event:<id>` (its managers'). */
export interface ChatMessageFrame {
  type: 'chat_message';
  message: ChatMessage;
}
export interface ChatDeletedFrame {
  type: 'chat_deleted';
  eventId: string;
  messageId: string;
}
export interface ChatRoomFrame {
  type: 'chat_room';
  eventId: string;
  room: RoomSettings;
}
export interface ChatReactionsFrame {
  type: 'chat_reactions';
  eventId: string;
  mediaTime: number;
  counts: ReactionCounts;
}
export interface ChatReportFrame {
  type: 'chat_report';
  report: ChatReport;
}
/** A moderator dismissed a report (its message stays): every moderator's list drops it. */
export interface ChatReportDismissedFrame {
  type: 'chat_report_dismissed';
  reportId: string;
}
export type ChatFrame = ChatMessageFrame | ChatDeletedFrame | ChatRoomFrame | ChatReactionsFrame;

/** The server's limit on a message, after cleaning. */
export const MAX_MESSAGE = 500;
/** Messages kept (and fetched, page after page) at most. */
export const MAX_MESSAGES = 1000;
/** The page size asked for (the server's most). */
export const PAGE_SIZE = 200;
/** Without the socket, the room is fetched again this often. */
export const POLL_MS = 5000;
/** The meter sums the reactions of this much media time up to the position. */
export const METER_WINDOW_MS = 10_000;
/** Clicks on a reaction are sent together, at most once per this. */
export const REACTION_BATCH_MS = 250;
/** The server counts at most this many of one reaction per request. */
export const MAX_REACTION_COUNT = 20;
/** Reaction windows kept: a few minutes of a busy room. */
export const MAX_WINDOWS = 2000;

/** Timeline order: media time, then posting time, then id (the server's order). */
export function compareMessages(a: ChatMessage, b: ChatMessage): number {
  if (a.mediaTime !== b.mediaTime) return a.mediaTime - b.mediaTime;
  if (a.postedAt !== b.postedAt) return Date.parse(a.postedAt) - Date.parse(b.postedAt) || (a.postedAt < b.postedAt ? -1 : 1);
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The messages of both lists once each (by id, the later list's copy wins), in timeline
 * order, the newest `max` kept. */
export function mergeMessages(older: readonly ChatMessage[], newer: readonly ChatMessage[], max = MAX_MESSAGES): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const message of older) byId.set(message.id, message);
  for (const message of newer) byId.set(message.id, message);
  const merged = [...byId.values()].sort(compareMessages);
  return merged.length > max ? merged.slice(merged.length - max) : merged;
}

/** `chat_deleted`: the message is gone for everyone. */
export function withoutMessage(messages: readonly ChatMessage[], messageId: string): ChatMessage[] {
  return messages.filter((message) => message.id !== messageId);
}

/** What a listener sees: the messages its player's position (ms) has reached, or all of them
 * when it does not play the show (`position` null). */
export function visibleMessages(messages: readonly ChatMessage[], position: number | null): ChatMessage[] {
  const sorted = [...messages].sort(compareMessages);
  return position === null ? sorted : sorted.filter((message) => message.mediaTime <= position);
}

/** One `chat_reactions` frame (or a second of the stored ones), and when it arrived here. */
export interface ReactionWindow {
  mediaTime: number;
  counts: ReactionCounts;
  /** Wall clock (ms) when it arrived: the meter of a reader who does not play the show. */
  receivedAt: number;
}

export const noReactions = (): ReactionCounts => ({ applause: 0, heart: 0, fire: 0 });

/** Adds a window, in media-time order, the newest `max` kept. */
export function addWindow(windows: readonly ReactionWindow[], window: ReactionWindow, max = MAX_WINDOWS): ReactionWindow[] {
  const next = [...windows];
  let at = next.length;
  while (at > 0 && (next[at - 1]?.mediaTime ?? 0) > window.mediaTime) at -= 1;
  next.splice(at, 0, window);
  return next.length > max ? next.slice(next.length - max) : next;
}

/** The stored reactions (one row per second) as windows, `receivedAt` now. */
export function windowsFromSeconds(rows: readonly ReactionSecond[], receivedAt: number): ReactionWindow[] {
  return rows
    .map((row) => ({ mediaTime: row.second * 1000, counts: { applause: row.applause, heart: row.heart, fire: row.fire }, receivedAt }))
    .sort((a, b) => a.mediaTime - b.mediaTime);
}

/** The socket's windows, and the stored seconds before the first of them (where the socket
 * was not there yet, or the reader rewound): never the same reactions twice. */
export function meterWindows(socket: readonly ReactionWindow[], stored: readonly ReactionWindow[]): ReactionWindow[] {
  const first = socket[0]?.mediaTime;
  if (first === undefined) return [...stored];
  return [...stored.filter((window) => window.mediaTime + 1000 <= first), ...socket];
}

/** The meter: the reactions of the last `METER_WINDOW_MS` of media time at or before the
 * position; for a reader who does not play the show (`position` null), of the last
 * `METER_WINDOW_MS` of wall clock before `now`. */
export function reactionMeter(windows: readonly ReactionWindow[], position: number | null, now: number): ReactionCounts & { total: number } {
  const sum = noReactions();
  for (const window of windows) {
    const inside =
      position === null
        ? window.receivedAt > now - METER_WINDOW_MS && window.receivedAt <= now
        : window.mediaTime > position - METER_WINDOW_MS && window.mediaTime <= position;
    if (!inside) continue;
    for (const kind of REACTION_KINDS) sum[kind] += window.counts[kind];
  }
  return { ...sum, total: sum.applause + sum.heart + sum.fire };
}

/** Where the reader's player is on this show's timeline (ms), or null when it does not
 * play it. */
export function playerPosition(player: { concertId: string | null; playing: boolean; currentTime: number }, eventId: string): number | null {
  if (player.concertId !== eventId || !player.playing || !Number.isFinite(player.currentTime)) return null;
  return Math.max(0, Math.round(player.currentTime * 1000));
}

/** Clicks waiting to be sent, per reaction. */
export type PendingReactions = Partial<Record<ReactionKind, number>>;

/** The requests one flush sends: one per reaction clicked, `count` at most the server's
 * limit (the rest stay for the next flush). */
export function takeReactions(pending: PendingReactions): { send: { kind: ReactionKind; count: number }[]; left: PendingReactions } {
  const send: { kind: ReactionKind; count: number }[] = [];
  const left: PendingReactions = {};
  for (const kind of REACTION_KINDS) {
    const count = pending[kind] ?? 0;
    if (count <= 0) continue;
    const now = Math.min(count, MAX_REACTION_COUNT);
    send.push({ kind, count: now });
    if (count > now) left[kind] = count - now;
  }
  return { send, left };
}

/** A piece of a message: text, or a link to an http(s) address. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const LINK = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than an address. */
const TRAILING = /[.,;:!?)\]}'"»”’]+$/;

/**
 * A message's text split into text and links (http and https only, what a URL parser takes),
 * for React to render as text nodes and anchors: never HTML.
 */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  const push = (piece: string): void => {
    if (piece === '') return;
    const previous = parts.at(-1);
    if (previous?.kind === 'text') previous.text += piece;
    else parts.push({ kind: 'text', text: piece });
  };
  for (const match of text.matchAll(LINK)) {
    const start = match.index;
    let candidate = match[0];
    // "(see https://a.example/x)." keeps its closing bracket and full stop outside.
    const trailing = TRAILING.exec(candidate)?.[0] ?? '';
    let kept = trailing;
    if (trailing.startsWith(')') && candidate.includes('(')) kept = trailing.slice(1);
    candidate = candidate.slice(0, candidate.length - kept.length);
    push(text.slice(last, start));
    const href = safeHref(candidate);
    if (href) parts.push({ kind: 'link', text: candidate, href });
    else push(candidate);
    last = start + candidate.length;
  }
  push(text.slice(last));
  return parts;
}

function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.href : null;
  } catch {
    return null;
  }
}

/** People's names are their own words, in any script: set in a sentence, each keeps its own
 * direction (a first-strong isolate, FSI … PDI), so "Ann B." stays whole in Persian. */
export const isolate = (text: string): string => `\u2068${text}\u2069`;

/** The characters a message counts, as the server counts them (code points, not UTF-16 units). */
export const messageLength = (text: string): number => [...text].length;

/** Whether a text may be sent: something left once trimmed, and not too long. */
export const sendable = (text: string): boolean => text.trim() !== '' && messageLength(text) <= MAX_MESSAGE;

/** Whether a timeout keeps the reader from posting at `now`, and until when (null: the rest
 * of the show). */
export function muting(room: ChatRoom | null, now: number): { muted: boolean; until: string | null } {
  if (!room?.you.muted) return { muted: false, until: null };
  const until = room.you.mutedUntil;
  if (until === null) return { muted: true, until: null };
  const end = Date.parse(until);
  return Number.isFinite(end) && end <= now ? { muted: false, until: null } : { muted: true, until };
}

/** What the reader may do: post (messages and reactions), and moderate. */
export function roomAbilities(room: ChatRoom | null, now: number): { post: boolean; react: boolean; moderate: boolean; reason: 'readOnly' | 'closed' | 'muted' | null } {
  if (!room) return { post: false, react: false, moderate: false, reason: null };
  const moderate = room.you.moderator;
  if (!room.postingOpen) return { post: false, react: false, moderate, reason: 'readOnly' };
  if (room.closed && !moderate) return { post: false, react: true, moderate, reason: 'closed' };
  if (!moderate && muting(room, now).muted) return { post: false, react: true, moderate, reason: 'muted' };
  return { post: true, react: true, moderate, reason: null };
}

/** Whether the reader may delete `message`: their own, or any for a moderator. */
export const canDelete = (room: ChatRoom | null, message: ChatMessage): boolean =>
  !!room && (room.you.moderator || room.you.accountId === message.accountId);

/** Whether the reader may report `message`: someone else's. */
export const canReport = (room: ChatRoom | null, message: ChatMessage): boolean => !!room && room.you.accountId !== message.accountId;

/**
 * The room's live state beside the fetched pages: what the socket brought (and what the
 * reader posted), kept with when it arrived so that a fetch that started before it does not
 * lose it.
 */
export interface LiveRoom {
  /** Messages from the socket and the reader's own posts, with their arrival. */
  arrived: { message: ChatMessage; at: number }[];
  /** Deleted since the page loaded, by id (a page fetched before the delete still holds them). */
  deleted: string[];
  /** The last `chat_room`, and when it came. */
  settings: { room: RoomSettings; at: number } | null;
  windows: ReactionWindow[];
}

export const emptyLiveRoom = (): LiveRoom => ({ arrived: [], deleted: [], settings: null, windows: [] });

export type LiveRoomAction =
  | { type: 'message'; message: ChatMessage; at: number }
  | { type: 'deleted'; messageId: string }
  | { type: 'settings'; room: RoomSettings; at: number }
  | { type: 'reactions'; window: ReactionWindow };

/** Deleted ids remembered, far more than a show deletes. */
const DELETED_MAX = 1000;

export function liveRoomReducer(state: LiveRoom, action: LiveRoomAction): LiveRoom {
  switch (action.type) {
    case 'message': {
      if (state.deleted.includes(action.message.id)) return state;
      const arrived = [...state.arrived.filter((entry) => entry.message.id !== action.message.id), { message: action.message, at: action.at }];
      return { ...state, arrived: arrived.length > MAX_MESSAGES ? arrived.slice(arrived.length - MAX_MESSAGES) : arrived };
    }
    case 'deleted':
      return {
        ...state,
        arrived: state.arrived.filter((entry) => entry.message.id !== action.messageId),
        deleted: state.deleted.includes(action.messageId) ? state.deleted : [...state.deleted, action.messageId].slice(-DELETED_MAX),
      };
    case 'settings':
      return { ...state, settings: { room: action.room, at: action.at } };
    case 'reactions':
      return { ...state, windows: addWindow(state.windows, action.window) };
  }
}

/** A fetched room: its messages and settings, and when the fetch started. */
export interface LoadedRoom {
  messages: ChatMessage[];
  room: ChatRoom;
  startedAt: number;
}

/** How long before a fetch started a socket message is still kept beside it (clocks of one
 * tab, but a message may have been stored just before the server read the page). */
const ARRIVAL_SLACK_MS = 2000;

/**
 * The room as shown: the fetched messages with those that arrived since the fetch started,
 * less the deleted ones; the settings of a `chat_room` that came after the fetch started.
 * The pinned message is left out when it was deleted.
 */
export function combineRoom(loaded: LoadedRoom | undefined, live: LiveRoom): { messages: ChatMessage[]; room: ChatRoom | null } {
  if (!loaded) return { messages: [], room: null };
  const since = loaded.startedAt - ARRIVAL_SLACK_MS;
  const fresh = live.arrived.filter((entry) => entry.at >= since).map((entry) => entry.message);
  const deleted = new Set(live.deleted);
  const messages = mergeMessages(loaded.messages, fresh).filter((message) => !deleted.has(message.id));
  let room = loaded.room;
  if (live.settings && live.settings.at >= loaded.startedAt) room = { ...room, ...live.settings.room };
  if (room.pinned && deleted.has(room.pinned.id)) room = { ...room, pinned: null };
  return { messages, room };
}

/** The open reports a moderator is shown at most (the server's list holds as many). */
export const MAX_REPORTS = 100;

/** The reports the socket brought since the panel opened, and those dismissed meanwhile (by
 * id: a list fetched before the dismissal still holds them). */
export interface LiveReports {
  arrived: ChatReport[];
  dismissed: string[];
}

export const emptyLiveReports = (): LiveReports => ({ arrived: [], dismissed: [] });

export type LiveReportsAction = { type: 'reported'; report: ChatReport } | { type: 'dismissed'; reportId: string };

export function liveReportsReducer(state: LiveReports, action: LiveReportsAction): LiveReports {
  switch (action.type) {
    case 'reported':
      if (state.arrived.some((report) => report.id === action.report.id)) return state;
      return { ...state, arrived: [action.report, ...state.arrived].slice(0, MAX_REPORTS) };
    case 'dismissed':
      if (state.dismissed.includes(action.reportId)) return state;
      return { arrived: state.arrived.filter((report) => report.id !== action.reportId), dismissed: [...state.dismissed, action.reportId].slice(-DELETED_MAX) };
  }
}

/** The open reports as shown: the fetched ones and those that arrived since, once each,
 * less the dismissed ones and those of a deleted message; newest first. */
export function openReports(fetched: readonly ChatReport[] | undefined, live: LiveReports, deletedMessages: readonly string[], max = MAX_REPORTS): ChatReport[] {
  const byId = new Map<string, ChatReport>();
  for (const report of [...(fetched ?? []), ...live.arrived]) byId.set(report.id, report);
  const dismissed = new Set(live.dismissed);
  const deleted = new Set(deletedMessages);
  return [...byId.values()]
    .filter((report) => !dismissed.has(report.id) && !deleted.has(report.message.id))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, max);
}

/** What a line of the moderation log says: the text's key under `log.action`, its figures,
 * whom it was about (their accountId, when the entry names one) and the text it quotes (a
 * deleted message, or the message pinned when the room still holds it). */
export interface LogLine {
  key: string;
  values: { minutes?: number; hours?: number; seconds?: number; action?: string };
  accountId: string | null;
  quote: string | null;
}

/** The moderation log's `action`s (server: src/chat/room.rs; `dismiss_report` from the
 * reports' Dismiss). */
const LOG_ACTIONS = new Set(['delete', 'pin', 'unpin', 'close', 'open', 'timeout_show', 'ban', 'lift', 'dismiss_report']);

/** One moderation log entry as a line: `messages` are the room's, to quote a pinned one. */
export function moderationLine(entry: ModerationEntry, messages: readonly ChatMessage[] = []): LogLine {
  const line: LogLine = { key: 'other', values: {}, accountId: entry.accountId, quote: null };
  const quoted = entry.messageId === null ? undefined : messages.find((message) => message.id === entry.messageId);
  switch (entry.action) {
    case 'slow_mode': {
      const seconds = Number(entry.detail ?? '0');
      return Number.isFinite(seconds) && seconds > 0 ? { ...line, key: 'slow_mode', values: { seconds } } : { ...line, key: 'slow_off' };
    }
    case 'timeout_5m':
      return { ...line, key: 'timeout_5m', values: { minutes: 5 } };
    case 'timeout_1h':
      return { ...line, key: 'timeout_1h', values: { hours: 1 } };
    case 'delete':
      return { ...line, key: 'delete', quote: entry.detail ?? quoted?.text ?? null };
    default:
      if (!LOG_ACTIONS.has(entry.action)) return { ...line, values: { action: entry.action } };
      return { ...line, key: entry.action, quote: quoted?.text ?? null };
  }
}

/** The authors' names the room knows, by account: the log names accounts by id only. */
export function authorNames(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) names.set(message.accountId, message.author);
  return names;
}

/** The slow mode choices offered to moderators (seconds; 0 is off). */
export const SLOW_MODE_CHOICES = [0, 5, 10, 30, 60, 120, 300, 600] as const;

// The hand-written shapes above against the server's OpenAPI document: each must be one the
// document describes (a renamed or new required field fails `tsc` here), and name no field
// the document does not (a field the server dropped fails too).
type Fits<Mine extends Theirs & Record<Exclude<keyof Mine, keyof Theirs>, never>, Theirs> = Mine;
/** Whether a list names every member of a union. */
type Covers<List extends readonly unknown[], Union> = [Exclude<Union, List[number]>] extends [never] ? true : false;
type Holds<Claim extends true> = Claim;
export type ServerShapes = [
  Fits<ChatMessage, Schema<'ChatMessage'>>,
  Fits<ChatRoom, Schema<'ChatRoom'>>,
  Fits<ChatYou, Schema<'You'>>,
  Fits<ChatPage, Schema<'ChatPage'>>,
  Fits<RoomSettings, Schema<'RoomSettings'>>,
  Fits<ModerationEntry, Schema<'ModerationEntry'>>,
  Fits<ChatReport, Schema<'Report'>>,
  Fits<RoomChange, Schema<'RoomInput'>>,
];
export type AllKinds = [Holds<Covers<typeof REACTION_KINDS, ReactionKind>>, Holds<Covers<typeof RESTRICTION_KINDS, RestrictionKind>>];
