/**
 * The tab's one live socket: carries out what the state machine (socket-state.ts) decides,
 * with the WebSocket, the timers and the access token, and hands each channel's messages
 * to its listeners.
 */
import type { ChannelMessage, ChannelName, ClientMessage, Position } from './socket-protocol';
import { CLOSE, CLOSE_SILENT, parseServerFrame } from './socket-protocol';
import type { Effect, LiveEvent, LiveState } from './socket-state';
import { initialState, step } from './socket-state';

/** The server pings every 25 s; this long without a word means the connection is dead
 * (a sleeping laptop, a half-open TCP connection), whatever the browser believes. */
export const SILENCE_MS = 70_000;
/** Renew the token this long before it expires (inside the session's refresh margin, so
 * asking for a valid token refreshes it). */
export const RENEW_AHEAD_MS = 45_000;

export interface LiveSocketOptions {
  url: string;
  /** A valid access token, refreshed first when needed, or a newer one than `replacing`;
   * null when there is no session any more. */
  getToken: (replacing?: string) => Promise<string | null>;
  /** The access token as stored now (it changes when any HTTP call refreshed it). */
  storedToken: () => string | null;
  /** Subscribes to the session's changes; returns the unsubscribe. */
  onSessionChange: (listener: () => void) => () => void;
  /** The session is over (4403, or no token to be had): the app's sign-out path. */
  onSessionEnded: () => void;
  createSocket?: (url: string) => WebSocket;
  random?: () => number;
}

// WebSocket.readyState values (the constructor's statics are not there in every test environment).
const CONNECTING = 0;
const OPEN = 1;

type Listener = (message: ChannelMessage) => void;

export class LiveSocket {
  private state: LiveState = initialState();
  private ws: WebSocket | null = null;
  /** The token the server last accepted or was sent. */
  private sentToken: string | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly stateListeners = new Set<() => void>();
  private readonly listeners = new Map<ChannelName, Set<Listener>>();
  private readonly cleanups: (() => void)[] = [];
  private readonly options: Required<LiveSocketOptions>;

  constructor(options: LiveSocketOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      random: Math.random,
      ...options,
    };
  }

  getState(): LiveState {
    return this.state;
  }

  /** Called after every state change; returns the unsubscribe (useSyncExternalStore's shape). */
  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  };

  start(): void {
    if (this.state.phase !== 'stopped') return;
    this.cleanups.push(this.options.onSessionChange(this.tokenMayHaveChanged));
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.networkBack);
      this.cleanups.push(() => {
        window.removeEventListener('online', this.networkBack);
      });
    }
    this.dispatch({ type: 'start' });
  }

  stop(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.dispatch({ type: 'stop' });
  }

  /** Hands `channel`'s messages to `listener`; returns the unsubscribe. */
  listen(channel: ChannelName, listener: Listener): () => void {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(channel);
    };
  }

  /** Follows a concert channel (`event:<id>`, `chat:<id>`), counted per caller; returns the release. */
  follow(channel: ChannelName): () => void {
    this.dispatch({ type: 'follow', channel });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.dispatch({ type: 'release', channel });
    };
  }

  private dispatch(event: LiveEvent): void {
    const { state, effects } = step(this.state, event);
    const changed = state !== this.state;
    this.state = state;
    for (const effect of effects) this.run(effect);
    if (changed) for (const listener of this.stateListeners) listener();
  }

  private run(effect: Effect): void {
    switch (effect.type) {
      case 'connect':
        this.connect();
        break;
      case 'authenticate':
        void this.authenticate(this.ws, effect.since);
        break;
      case 'send':
        this.send(effect.message);
        break;
      case 'deliver':
        for (const listener of [...(this.listeners.get(effect.message.channel) ?? [])]) listener(effect.message);
        break;
      case 'retryIn':
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => {
          void this.retry(effect.refreshToken);
        }, effect.ms);
        break;
      case 'renewBefore':
        clearTimeout(this.renewTimer);
        this.renewTimer = setTimeout(
          () => {
            void this.renew();
          },
          Math.max(0, effect.at - RENEW_AHEAD_MS - Date.now()),
        );
        break;
      case 'signOut':
        this.disconnect();
        this.options.onSessionEnded();
        break;
      case 'disconnect':
        this.disconnect();
        break;
    }
  }

  private connect(): void {
    this.detach();
    const ws = this.options.createSocket(this.options.url);
    this.ws = ws;
    ws.onopen = () => {
      this.heard();
      this.dispatch({ type: 'opened' });
    };
    ws.onmessage = (event: MessageEvent) => {
      this.heard();
      if (typeof event.data !== 'string') return;
      for (const message of parseServerFrame(event.data)) this.dispatch({ type: 'message', message });
    };
    ws.onclose = (event: CloseEvent) => {
      this.lost(event.code);
    };
  }

  /** The socket is gone (closed by the server, the network, or our silence watchdog). */
  private lost(code: number): void {
    this.detach();
    this.dispatch({ type: 'closed', code, random: this.options.random() });
  }

  private heard(): void {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => {
      this.lost(CLOSE_SILENT);
    }, SILENCE_MS);
  }

  private async authenticate(ws: WebSocket | null, since: Record<ChannelName, Position>): Promise<void> {
    const token = await this.options.getToken();
    if (ws !== this.ws) return; // that socket closed meanwhile
    if (!token) {
      this.dispatch({ type: 'closed', code: CLOSE.sessionEnded, random: this.options.random() });
      return;
    }
    this.sentToken = token;
    this.send(Object.keys(since).length > 0 ? { type: 'auth', token, since } : { type: 'auth', token });
  }

  private async retry(refreshToken: boolean): Promise<void> {
    if (refreshToken) {
      const token = await this.options.getToken(this.sentToken ?? undefined);
      if (!token) {
        this.dispatch({ type: 'closed', code: CLOSE.sessionEnded, random: this.options.random() });
        return;
      }
    }
    this.dispatch({ type: 'retry' });
  }

  /** Before the token expires: a fresh one, and `auth` again on the open socket. */
  private async renew(): Promise<void> {
    const token = await this.options.getToken();
    if (!token) {
      if (this.state.phase === 'live') this.dispatch({ type: 'closed', code: CLOSE.sessionEnded, random: this.options.random() });
      return;
    }
    this.reauth(token);
  }

  /** Another part of the app refreshed the token (or cleared the session). */
  private readonly tokenMayHaveChanged = (): void => {
    const token = this.options.storedToken();
    if (token) this.reauth(token);
  };

  private reauth(token: string): void {
    if (this.state.phase !== 'live' || token === this.sentToken) return;
    this.sentToken = token;
    this.send({ type: 'auth', token });
  }

  private readonly networkBack = (): void => {
    if (this.state.phase !== 'reconnecting' && this.state.phase !== 'offline') return;
    clearTimeout(this.retryTimer);
    this.dispatch({ type: 'retry' });
  };

  private send(message: ClientMessage): void {
    if (this.ws?.readyState === OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Forgets the current socket (closing it if still open) without reporting its close. */
  private detach(): void {
    clearTimeout(this.silenceTimer);
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    // Closing one still connecting makes the browser log an error: let it open first.
    if (ws.readyState === CONNECTING) {
      ws.onopen = () => {
        ws.close(1000);
      };
    } else if (ws.readyState === OPEN) {
      ws.close(1000);
    }
  }

  private disconnect(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.renewTimer);
    this.detach();
  }
}
