/**
 * A concert's live room for a component: the messages (every page, then what the socket
 * brings on `chat:<id>`), the room's settings, the reactions meter, and the reader's
 * actions. Without the socket the room is fetched again every few seconds.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useState } from 'react';
import { useNow } from '../../lib/use-now';
import type { ChannelMessage } from '../live/socket-protocol';
import { chatChannel } from '../live/socket-protocol';
import { useLiveChannel, useLiveChannelState, useLiveConnection } from '../live/socket-provider';
import { usePlayerSelect } from '../player/player';
import { changeChatRoom, deleteChatMessage, liftChatRestriction, postChatMessage, reportChatMessage, restrictChatAccount, sendReactions } from './api';
import type { ChatMessage, ChatRoom, LiveRoomAction, ReactionCounts, ReactionKind, RestrictionKind, RoomChange } from './model';
import {
  METER_WINDOW_MS,
  combineRoom,
  emptyLiveRoom,
  liveRoomReducer,
  meterWindows,
  playerPosition,
  reactionMeter,
  roomAbilities,
  visibleMessages,
  windowsFromSeconds,
} from './model';
import { createReactionBatcher } from './reaction-batcher';
import { reactionsQueryOptions, refusal, roomKeys, roomQueryOptions } from './queries';

export type RoomStatus = 'loading' | 'ready' | 'forbidden' | 'error';

export interface RoomView {
  eventId: string;
  status: RoomStatus;
  error: unknown;
  room: ChatRoom | null;
  /** Every message known (the moderators' list). */
  messages: ChatMessage[];
  /** The messages the reader's player has reached (all when it does not play the show). */
  visible: ChatMessage[];
  /** The reader's place on the show's timeline (ms), or null when not playing it. */
  position: number | null;
  meter: ReactionCounts & { total: number };
  /** The socket carries the room; otherwise it is polled. */
  pushed: boolean;
  /** Say "not live": the socket is not there (or refused the room) and the room is polled. */
  polling: boolean;
  abilities: ReturnType<typeof roomAbilities>;
  /** Messages deleted while the room was open (their reports are moot). */
  deleted: readonly string[];
  /** The clock the view was computed at (ticks each second). */
  now: number;
  /** Records what the reader did (a post, a deletion, new settings) before the socket says so. */
  record: (action: LiveRoomAction) => void;
}

/** Stored reactions are fetched in stretches of this much media time around the position. */
const REACTION_STRETCH_MS = 10_000;

/** The reader's place in the show (ms), re-read as the player ticks; null when it does not
 * play this concert (or `follow` is off: the artist's panel). */
function usePosition(eventId: string, follow: boolean): number | null {
  return usePlayerSelect((snapshot) =>
    follow ? playerPosition({ concertId: snapshot.concert?.id ?? null, playing: snapshot.phase.kind === 'playing', currentTime: snapshot.currentTime }, eventId) : null,
  );
}

/** Whether the player plays this concert's replay (its stored reactions play back). */
function useReplaying(eventId: string, follow: boolean): boolean {
  return usePlayerSelect((snapshot) => follow && snapshot.concert?.id === eventId && snapshot.live === false);
}

/** `followPlayer`: the messages wait for the reader's player (the stage); off in the artist's
 * panel. `enabled`: off where the reader is known not to be one of the room's readers (no
 * request, no subscription). */
export function useRoom(eventId: string, { followPlayer = true, enabled = true }: { followPlayer?: boolean; enabled?: boolean } = {}): RoomView {
  const queryClient = useQueryClient();
  const [live, dispatch] = useReducer(liveRoomReducer, undefined, emptyLiveRoom);
  const position = usePosition(eventId, followPlayer);
  const replaying = useReplaying(eventId, followPlayer);
  const now = useNow(1000);

  // The first answer tells whether the reader may read; the socket is asked only then.
  const probe = queryClient.getQueryState(roomKeys.detail(eventId));
  const refused = probe?.status === 'error' && refusal(probe.error);
  const channel = refused || !enabled ? null : chatChannel(eventId);
  const pushed = useLiveChannel(channel, (message: ChannelMessage) => {
    const at = Date.now();
    switch (message.type) {
      case 'chat_message':
        dispatch({ type: 'message', message: message.message, at });
        break;
      case 'chat_deleted':
        dispatch({ type: 'deleted', messageId: message.messageId });
        // Another moderator's deletion may be a line of the log (when a moderator shows it).
        void queryClient.invalidateQueries({ queryKey: roomKeys.moderation(eventId) });
        break;
      case 'chat_room':
        dispatch({ type: 'settings', room: message.room, at });
        void queryClient.invalidateQueries({ queryKey: roomKeys.moderation(eventId) });
        break;
      case 'chat_reactions':
        dispatch({ type: 'reactions', window: { mediaTime: message.mediaTime, counts: message.counts, receivedAt: at } });
        break;
      case 'subscribed':
        // The history is gone (or this is the first subscribe): the pages again.
        if (!message.recovered) void queryClient.invalidateQueries({ queryKey: roomKeys.detail(eventId) });
        break;
      default:
        break;
    }
  });
  const phase = useLiveConnection();
  const channelState = useLiveChannelState(channel);
  const query = useQuery({ ...roomQueryOptions(eventId, pushed), enabled });
  const forbidden = query.isError && refusal(query.error);

  // The stored reactions where the socket brings none: without the socket, and in the replay.
  const storedWanted = enabled && position !== null && !forbidden && (!pushed || replaying);
  const stretch = position === null ? 0 : Math.floor(position / REACTION_STRETCH_MS) * REACTION_STRETCH_MS;
  const fromMs = Math.max(0, stretch - METER_WINDOW_MS - REACTION_STRETCH_MS);
  const toMs = stretch + REACTION_STRETCH_MS;
  const stored = useQuery({ ...reactionsQueryOptions(eventId, fromMs, toMs, !pushed), enabled: storedWanted });

  const { messages, room } = combineRoom(query.data, live);
  const storedWindows = storedWanted && stored.data ? windowsFromSeconds(stored.data, stored.dataUpdatedAt) : [];
  const meter = reactionMeter(meterWindows(live.windows, storedWindows), position, now);
  const connecting = phase === 'connecting' || (phase === 'live' && channelState === 'pending');

  return {
    eventId,
    status: query.isPending ? 'loading' : forbidden ? 'forbidden' : query.isError ? 'error' : 'ready',
    error: query.error,
    room,
    messages,
    visible: visibleMessages(messages, position),
    position,
    meter,
    pushed,
    polling: enabled && !pushed && !connecting && !forbidden,
    abilities: roomAbilities(room, now),
    deleted: live.deleted,
    now,
    record: dispatch,
  };
}

/** The reader's actions in the room; each shows in the room at once. */
export function useRoomActions(view: Pick<RoomView, 'eventId' | 'position' | 'record'>) {
  const { eventId, record } = view;
  const queryClient = useQueryClient();
  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: roomKeys.detail(eventId) });
  // Each moderation action is a line of the log: read again where it is shown.
  const logged = (): Promise<void> => queryClient.invalidateQueries({ queryKey: roomKeys.moderation(eventId) });
  const post = useMutation({
    mutationFn: (text: string) => postChatMessage(eventId, text, view.position),
    onSuccess: (message) => {
      record({ type: 'message', message, at: Date.now() });
    },
  });
  const remove = useMutation({
    mutationFn: (messageId: string) => deleteChatMessage(eventId, messageId),
    onSuccess: (_answer, messageId) => {
      record({ type: 'deleted', messageId });
      void logged();
    },
  });
  const report = useMutation({ mutationFn: (messageId: string) => reportChatMessage(eventId, messageId) });
  const change = useMutation({
    mutationFn: (room: RoomChange) => changeChatRoom(eventId, room),
    onSuccess: (room) => {
      record({ type: 'settings', room: { pinned: room.pinned, slowModeSeconds: room.slowModeSeconds, closed: room.closed }, at: Date.now() });
      void logged();
    },
  });
  const restrict = useMutation({
    mutationFn: ({ accountId, kind }: { accountId: string; kind: RestrictionKind }) => restrictChatAccount(eventId, accountId, kind),
    onSuccess: () => {
      void logged();
    },
  });
  const lift = useMutation({
    mutationFn: (accountId: string) => liftChatRestriction(eventId, accountId),
    onSuccess: () => {
      void logged();
      return refresh();
    },
  });
  return { post, remove, report, change, restrict, lift };
}

/** Reaction clicks, sent together (reaction-batcher.ts), each batch at the reader's place
 * in the show. */
export function useReactionSender(eventId: string): (kind: ReactionKind, mediaTime: number | null) => void {
  const [batcher] = useState(() =>
    createReactionBatcher((kind, count, mediaTime) => {
      // Dropped reactions are not refused: nothing to tell the reader.
      sendReactions(eventId, kind, count, mediaTime).catch(() => undefined);
    }),
  );
  useEffect(
    () => () => {
      batcher.stop();
    },
    [batcher],
  );
  return batcher.click;
}
