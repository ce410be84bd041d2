/**
 * The live socket for the signed-in shell, and the hooks the features use:
 * `useLiveConnection()` (is the dashboard live?) and `useLiveChannel(channel, handler)`
 * (a channel's messages; concert channels are followed while a component listens).
 * Outside the provider (tests, public pages) nothing is live and features poll.
 */
import { createContext, useContext, useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { getAccessTokenCookie, getValidAccessToken, onSessionChange } from '../auth/session';
import { API_PREFIX } from '../../lib/constants';
import { reportSessionEnded } from '../../lib/http';
import { LiveSocket } from './socket-client';
import type { LiveSocketOptions } from './socket-client';
import type { ChannelMessage, ChannelName } from './socket-protocol';
import { closeReason, isConcertChannel, socketUrl } from './socket-protocol';
import type { ChannelState, Phase } from './socket-state';
import { isFollowed } from './socket-state';

export const SOCKET_PATH = `${API_PREFIX}/ws`;

interface LiveContextValue {
  socket: LiveSocket;
  accountId: string;
}

const LiveContext = createContext<LiveContextValue | null>(null);

/** The socket's options in the app: the page's origin, the session's token and sign-out. */
export function appSocketOptions(): LiveSocketOptions {
  return {
    url: socketUrl(window.location, SOCKET_PATH),
    getToken: getValidAccessToken,
    storedToken: getAccessTokenCookie,
    onSessionChange,
    onSessionEnded: reportSessionEnded,
  };
}

/** Opens the tab's socket while mounted (the signed-in shell), as `accountId`. */
export function LiveProvider({ accountId, options, children }: { accountId: string; options?: () => LiveSocketOptions; children: ReactNode }): ReactNode {
  const [socket] = useState(() => new LiveSocket((options ?? appSocketOptions)()));
  useEffect(() => {
    socket.start();
    return () => {
      socket.stop();
    };
  }, [socket]);
  return <LiveContext value={{ socket, accountId }}>{children}</LiveContext>;
}

const STOPPED = (): Phase => 'stopped';
const NOTHING = (): (() => void) => () => undefined;

/** Where the socket stands: `live` means the features may stop polling. */
export function useLiveConnection(): Phase {
  const socket = useContext(LiveContext)?.socket;
  return useSyncExternalStore(socket?.subscribeState ?? NOTHING, socket ? () => socket.getState().phase : STOPPED);
}

const NO_REASON = (): string | null => null;

/** Why the last socket closed (the protocol's reason word), while it is not live again. */
export function useLiveCloseReason(): string | null {
  const socket = useContext(LiveContext)?.socket;
  return useSyncExternalStore(socket?.subscribeState ?? NOTHING, socket ? () => closeReason(socket.getState().lastClose) : NO_REASON);
}

/** The signed-in account's own channel (its notifications), or null outside the provider. */
export function useAccountChannel(): ChannelName | null {
  const accountId = useContext(LiveContext)?.accountId;
  return accountId ? `account:${accountId}` : null;
}

/**
 * Calls `handler` with each message of `channel` (and each `subscribed`: refetch when it
 * says `recovered: false`); a concert channel (`event:<id>`, `chat:<id>`) is followed while the calling
 * component is mounted. Answers whether the socket carries the channel now: when it does
 * not, the caller keeps polling.
 */
export function useLiveChannel(channel: ChannelName | null, handler: (message: ChannelMessage) => void): boolean {
  const socket = useContext(LiveContext)?.socket;
  const onMessage = useEffectEvent(handler);
  useEffect(() => {
    if (!socket || !channel) return undefined;
    // Listen first, so the `subscribed` the follow brings is heard.
    const stopListening = socket.listen(channel, (message) => {
      onMessage(message);
    });
    const release = isConcertChannel(channel) ? socket.follow(channel) : undefined;
    return () => {
      release?.();
      stopListening();
    };
  }, [socket, channel]);
  return useSyncExternalStore(socket?.subscribeState ?? NOTHING, () => (socket && channel ? isFollowed(socket.getState(), channel) : false));
}

const NO_CHANNEL = (): ChannelState | null => null;

/** What the live socket made of a concert channel the caller follows (`pending` while the
 * server has not answered, `refused`), or null while the socket is not live. */
export function useLiveChannelState(channel: ChannelName | null): ChannelState | null {
  const socket = useContext(LiveContext)?.socket;
  const read = (): ChannelState | null => {
    if (!socket || !channel) return null;
    const state = socket.getState();
    return state.phase === 'live' ? (state.channels[channel] ?? null) : null;
  };
  return useSyncExternalStore(socket?.subscribeState ?? NOTHING, socket && channel ? read : NO_CHANNEL);
}
