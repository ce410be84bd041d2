import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../lib/errors';
import { getChatPage, getModerationLog, getOpenReports, getReactions } from './api';
import type { ChatMessage, LoadedRoom } from './model';
import { MAX_MESSAGES, PAGE_SIZE, POLL_MS, mergeMessages } from './model';

export const roomKeys = {
  all: ['chat'] as const,
  detail: (eventId: string) => ['chat', 'detail', eventId] as const,
  reactions: (eventId: string, fromMs: number, toMs: number) => ['chat', 'reactions', eventId, fromMs, toMs] as const,
  moderation: (eventId: string) => ['chat', 'moderation', eventId] as const,
  reports: (eventId: string) => ['chat', 'reports', eventId] as const,
};

/** The room: every page from the start of the show (following `next`), up to
 * `MAX_MESSAGES` messages, and when the fetch started (what the socket brings after that is
 * kept beside it). */
export async function loadRoom(eventId: string): Promise<LoadedRoom> {
  const startedAt = Date.now();
  let page = await getChatPage(eventId, { limit: PAGE_SIZE });
  let messages: ChatMessage[] = page.messages;
  const room = page.room;
  while (page.next && messages.length < MAX_MESSAGES) {
    page = await getChatPage(eventId, { after: page.next, limit: PAGE_SIZE });
    if (page.messages.length === 0) break;
    messages = mergeMessages(messages, page.messages, Number.MAX_SAFE_INTEGER);
  }
  return { messages: mergeMessages([], messages), room, startedAt };
}

/** The room's answer to a reader who may not read it (403), or to a draft (404). */
export const refusal = (error: unknown): boolean => error instanceof ApiError && (error.status === 403 || error.status === 404);

/** `pushed`: the live socket follows the room, so no polling; otherwise every `POLL_MS`. A
 * 403 or 404 is an answer, not retried. */
export const roomQueryOptions = (eventId: string, pushed: boolean) =>
  queryOptions({
    queryKey: roomKeys.detail(eventId),
    queryFn: () => loadRoom(eventId),
    // A refusal stays one: no polling, no retry.
    refetchInterval: (query) => (pushed || refusal(query.state.error) ? false : POLL_MS),
    retry: (failures, error) => failures < 2 && !refusal(error),
  });

/** The stored reactions of a stretch of the show (the replay, or a reader without the socket). */
export const reactionsQueryOptions = (eventId: string, fromMs: number, toMs: number, poll: boolean) =>
  queryOptions({
    queryKey: roomKeys.reactions(eventId, fromMs, toMs),
    queryFn: () => getReactions(eventId, fromMs, toMs),
    refetchInterval: poll ? POLL_MS : false,
    retry: false,
  });

/** The room's moderation log, newest first (moderators only). Fetched while it is shown, again
 * after each moderation action (use-room.ts). */
export const moderationLogQueryOptions = (eventId: string) =>
  queryOptions({
    queryKey: roomKeys.moderation(eventId),
    queryFn: () => getModerationLog(eventId),
    retry: (failures, error) => failures < 2 && !refusal(error),
  });

/** The room's open reports (moderators): fetched when the panel opens (the socket brings the
 * new ones after); polled while the socket does not carry the concert's channel. */
export const openReportsQueryOptions = (eventId: string, pushed: boolean) =>
  queryOptions({
    queryKey: roomKeys.reports(eventId),
    queryFn: () => getOpenReports(eventId),
    refetchInterval: (query) => (pushed || refusal(query.state.error) ? false : POLL_MS),
    retry: (failures, error) => failures < 2 && !refusal(error),
  });
