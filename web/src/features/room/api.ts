/** The live room's endpoints (docs/api-contract.md, "The live room: chat and reactions"). */
import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { ChatMessage, ChatPage, ChatReport, ModerationEntry, ReactionKind, ReactionSecond, RestrictionKind, RoomChange, RoomSettings } from './model';

const id = (value: string): string => encodeURIComponent(value);
const room = (eventId: string): string => `${API_PREFIX}/events/${id(eventId)}/chat`;

/** A 403 here is the room's answer (no ticket, outside the listening window, banned), shown
 * where it happens: never the app's forbidden page. */
const ANSWER = { forbiddenIsAnswer: true } as const;

/** One page of messages by media time, with the room. */
export const getChatPage = (eventId: string, query: { fromMs?: number; after?: string | null; limit?: number } = {}): Promise<ChatPage> =>
  request<ChatPage>(room(eventId), { ...ANSWER, query: { fromMs: query.fromMs, after: query.after, limit: query.limit } });

/** Posts a message; `mediaTime` left out when the reader's player does not play the show
 * (the server takes the live edge). */
export const postChatMessage = (eventId: string, text: string, mediaTime: number | null): Promise<ChatMessage> =>
  request<ChatMessage>(room(eventId), { ...ANSWER, method: 'POST', body: mediaTime === null ? { text } : { text, mediaTime } });

export const deleteChatMessage = (eventId: string, messageId: string): Promise<unknown> =>
  request<unknown>(`${room(eventId)}/messages/${id(messageId)}`, { ...ANSWER, method: 'DELETE' });

export const reportChatMessage = (eventId: string, messageId: string): Promise<unknown> =>
  request<unknown>(`${room(eventId)}/messages/${id(messageId)}/report`, { ...ANSWER, method: 'POST' });

/** The reports still open (neither dismissed nor of a deleted message), newest first
 * (moderators). */
export const getOpenReports = (eventId: string): Promise<ChatReport[]> => request<ChatReport[]>(`${room(eventId)}/reports`, ANSWER);

/** Dismisses a report, keeping its message (moderators; logged as `dismiss_report`). */
export const dismissChatReport = (eventId: string, reportId: string): Promise<unknown> =>
  request<unknown>(`${room(eventId)}/reports/${id(reportId)}`, { ...ANSWER, method: 'DELETE' });

/** The room's settings as changed. */
export const changeChatRoom = (eventId: string, change: RoomChange): Promise<RoomSettings> =>
  request<RoomSettings>(`${room(eventId)}/room`, { ...ANSWER, method: 'PATCH', body: change });

export const restrictChatAccount = (eventId: string, accountId: string, kind: RestrictionKind): Promise<unknown> =>
  request<unknown>(`${room(eventId)}/restrictions`, { ...ANSWER, method: 'POST', body: { accountId, kind } });

export const liftChatRestriction = (eventId: string, accountId: string): Promise<unknown> =>
  request<unknown>(`${room(eventId)}/restrictions/${id(accountId)}`, { ...ANSWER, method: 'DELETE' });

export const getModerationLog = (eventId: string): Promise<ModerationEntry[]> => request<ModerationEntry[]>(`${room(eventId)}/moderation`, ANSWER);

export const sendReactions = (eventId: string, kind: ReactionKind, count: number, mediaTime: number | null): Promise<{ accepted: number }> =>
  request<{ accepted: number }>(`${room(eventId)}/reactions`, {
    ...ANSWER,
    method: 'POST',
    body: mediaTime === null ? { kind, count } : { kind, count, mediaTime },
  });

export const getReactions = (eventId: string, fromMs: number, toMs: number): Promise<ReactionSecond[]> =>
  request<ReactionSecond[]>(`${room(eventId)}/reactions`, { ...ANSWER, query: { fromMs, toMs } });
