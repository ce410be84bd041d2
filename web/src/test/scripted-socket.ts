// A WebSocket whose server the test plays: it records what the client sends, and the
// test opens it, says server messages and drops it.
import { act } from '@testing-library/react';
import type { LiveSocketOptions } from '../features/live/socket-client';
import type { ChannelName, ServerMessage } from '../features/live/socket-protocol';

/** A WebSocket the test plays the server of: it records what the client sends. */
export class ScriptedSocket {
  static made: ScriptedSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    ScriptedSocket.made.push(this);
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  say(message: ServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** A frame as the server writes it, whatever it holds (a room's `batch`). */
  sayFrame(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

/** The socket the client made last. */
export function latest(): ScriptedSocket {
  const socket = ScriptedSocket.made.at(-1);
  if (!socket) throw new Error('no socket made');
  return socket;
}

/** In a rendered app: the socket the client made last opens (the client then sends its token). */
export async function openLatest(): Promise<void> {
  await act(async () => {
    latest().open();
    await Promise.resolve();
  });
}

/** In a rendered app: the server says `message` on the socket the client made last. */
export function say(message: ServerMessage): void {
  act(() => {
    latest().say(message);
  });
}

/** The server's answer to a good token: `accountId` is signed in and follows `channels`. */
export const ready = (accountId = 'a1', channels: ChannelName[] = [`account:${accountId}`]): ServerMessage => ({
  type: 'ready',
  accountId,
  expiresAt: '2099-01-01T00:00:00Z',
  channels,
});

/** A live socket's options for component tests: a good token, scripted sockets. */
export const scriptedOptions = (): LiveSocketOptions => ({
  url: 'ws://host/api/v1/ws',
  getToken: () => Promise.resolve('token'),
  storedToken: () => 'token',
  onSessionChange: () => () => undefined,
  onSessionEnded: () => undefined,
  createSocket: (url) => new ScriptedSocket(url) as unknown as WebSocket,
});
