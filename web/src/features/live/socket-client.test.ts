import { LiveSocket, RENEW_AHEAD_MS, SILENCE_MS } from './socket-client';
import type { LiveSocketOptions } from './socket-client';
import { chatMessage } from '../../test/room-fixtures';
import { ScriptedSocket, latest } from '../../test/scripted-socket';
import type { ChannelMessage } from './socket-protocol';
import { CLOSE, socketUrl } from './socket-protocol';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
const inAnHour = (): string => new Date(Date.now() + 3600_000).toISOString();

function setup(overrides: Partial<LiveSocketOptions> = {}) {
  let token = 'token-1';
  const sessionListeners = new Set<() => void>();
  const options = {
    url: 'ws://host/api/v1/ws',
    getToken: vi.fn((replacing?: string) => {
      if (replacing !== undefined && replacing === token) token = `${token}+`;
      return Promise.resolve<string | null>(token);
    }),
    storedToken: () => token,
    onSessionChange: (listener: () => void) => {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    onSessionEnded: vi.fn(),
    createSocket: (url: string) => new ScriptedSocket(url) as unknown as WebSocket,
    random: () => 0.5,
    ...overrides,
  };
  const socket = new LiveSocket(options);
  const refreshed = (next: string): void => {
    token = next;
    for (const listener of sessionListeners) listener();
  };
  return { socket, options, refreshed };
}

/** Opens and authenticates: the client is live on the account channel at `offset`. */
async function goLive(offset = 0): Promise<ScriptedSocket> {
  const ws = latest();
  ws.open();
  await flush();
  ws.say({ type: 'ready', accountId: 'a1', expiresAt: inAnHour(), channels: ['account:a1'] });
  ws.say({ type: 'subscribed', channel: 'account:a1', offset, epoch: 'e1', recovered: false });
  return ws;
}

beforeEach(() => {
  ScriptedSocket.made = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('live socket client', () => {
  it('opens on the page origin with ws or wss', () => {
    expect(socketUrl({ protocol: 'https:', host: 'encore.example' }, '/api/v1/ws')).toBe('wss://encore.example/api/v1/ws');
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:8080' }, '/api/v1/ws')).toBe('ws://127.0.0.1:8080/api/v1/ws');
  });

  it('authenticates with the token first, answers pings, and hands messages to the channel listeners', async () => {
    const { socket } = setup();
    const heard: ChannelMessage[] = [];
    socket.listen('account:a1', (message) => heard.push(message));
    socket.start();
    const ws = await goLive();
    expect(ws.sent[0]).toEqual({ type: 'auth', token: 'token-1' });
    expect(socket.getState().phase).toBe('live');
    ws.say({ type: 'ping' });
    expect(ws.sent.at(-1)).toEqual({ type: 'pong' });
    ws.say({
      type: 'notification',
      channel: 'account:a1',
      offset: 1,
      epoch: 'e1',
      notification: { id: 'n1', type: 'topic', title: 'Hi', body: '', read: false, createdAt: inAnHour() },
    });
    expect(heard.map((m) => m.type)).toEqual(['subscribed', 'notification']);
    socket.stop();
    expect(ws.closedWith).toBe(1000);
  });

  it('hands each message of a room batch frame to the channel listeners, in order', async () => {
    const { socket } = setup();
    const heard: ChannelMessage[] = [];
    socket.listen('chat:e1', (message) => heard.push(message));
    socket.start();
    const ws = await goLive();
    socket.follow('chat:e1');
    ws.say({ type: 'subscribed', channel: 'chat:e1', offset: 0, epoch: 'c1', recovered: false });
    const message = (offset: number, text: string) => ({
      type: 'chat_message',
      channel: 'chat:e1',
      offset,
      epoch: 'c1',
      message: chatMessage(`m${String(offset)}`, { eventId: 'e1', accountId: 'a2', text, mediaTime: 0, postedAt: inAnHour() }),
    });
    ws.sayFrame({ type: 'batch', messages: [message(1, 'one'), { type: 'from_the_future' }, message(2, 'two')] });
    expect(heard.map((m) => m.type)).toEqual(['subscribed', 'chat_message', 'chat_message']);
    expect(heard.slice(1).map((m) => ('offset' in m ? m.offset : null))).toEqual([1, 2]);
    socket.stop();
  });

  it('re-authenticates the open socket after a token refresh', async () => {
    const { socket, refreshed } = setup();
    socket.start();
    const ws = await goLive();
    refreshed('token-2');
    expect(ws.sent.at(-1)).toEqual({ type: 'auth', token: 'token-2' });
    refreshed('token-2');
    expect(ws.sent.filter((m) => (m as { type: string }).type === 'auth')).toHaveLength(2);
    socket.stop();
  });

  it('renews the token before it expires', async () => {
    const { socket, options } = setup();
    socket.start();
    const ws = latest();
    ws.open();
    await flush();
    ws.say({ type: 'ready', accountId: 'a1', expiresAt: new Date(Date.now() + 600_000).toISOString(), channels: [] });
    vi.mocked(options.getToken).mockClear();
    await vi.advanceTimersByTimeAsync(600_000 - RENEW_AHEAD_MS - 1000);
    expect(options.getToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(options.getToken).toHaveBeenCalled();
    socket.stop();
  });

  it('reconnects after a loss, with since, after a backoff', async () => {
    const { socket } = setup();
    socket.start();
    const first = await goLive(4);
    first.drop(1006);
    expect(socket.getState().phase).toBe('reconnecting');
    expect(ScriptedSocket.made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ScriptedSocket.made).toHaveLength(2);
    latest().open();
    await flush();
    expect(latest().sent[0]).toEqual({ type: 'auth', token: 'token-1', since: { 'account:a1': { offset: 4, epoch: 'e1' } } });
    socket.stop();
  });

  it('after 4401 gets a token newer than the refused one before reconnecting', async () => {
    const { socket, options } = setup();
    socket.start();
    (await goLive()).drop(CLOSE.unauthorized);
    await vi.advanceTimersByTimeAsync(1000);
    expect(options.getToken).toHaveBeenCalledWith('token-1');
    latest().open();
    await flush();
    expect(latest().sent[0]).toEqual({ type: 'auth', token: 'token-1+', since: { 'account:a1': { offset: 0, epoch: 'e1' } } });
    socket.stop();
  });

  it('takes the sign-out path on 4403 and does not come back', async () => {
    const { socket, options } = setup();
    socket.start();
    (await goLive()).drop(CLOSE.sessionEnded);
    expect(options.onSessionEnded).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(ScriptedSocket.made).toHaveLength(1);
    expect(socket.getState().phase).toBe('ended');
  });

  it('takes the sign-out path when no token can be had', async () => {
    const { socket, options } = setup({ getToken: vi.fn(() => Promise.resolve(null)) });
    socket.start();
    latest().open();
    await flush();
    expect(options.onSessionEnded).toHaveBeenCalledTimes(1);
    expect(latest().sent).toEqual([]);
  });

  it('gives up on a silent server and reconnects', async () => {
    const { socket } = setup();
    socket.start();
    const ws = await goLive();
    await vi.advanceTimersByTimeAsync(SILENCE_MS + 10);
    expect(ws.closedWith).toBe(1000);
    expect(socket.getState().phase).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(ScriptedSocket.made).toHaveLength(2);
    socket.stop();
  });

  it('follows a concert while someone listens, and again after a reconnect', async () => {
    const { socket } = setup();
    socket.start();
    const ws = await goLive();
    const releaseA = socket.follow('event:c1');
    const releaseB = socket.follow('event:c1');
    expect(ws.sent.filter((m) => (m as { type: string }).type === 'subscribe')).toEqual([{ type: 'subscribe', channel: 'event:c1' }]);
    ws.say({ type: 'subscribed', channel: 'event:c1', offset: 3, epoch: 'c', recovered: false });
    ws.drop(CLOSE.goingAway);
    await vi.advanceTimersByTimeAsync(1000);
    const next = await goLive();
    expect(next.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'event:c1', since: { offset: 3, epoch: 'c' } });
    releaseA();
    releaseA();
    expect(next.sent.at(-1)).toMatchObject({ type: 'subscribe' });
    releaseB();
    expect(next.sent.at(-1)).toEqual({ type: 'unsubscribe', channel: 'event:c1' });
    socket.stop();
  });

  it('lets a socket still connecting open before closing it (no browser error)', () => {
    const { socket } = setup();
    socket.start();
    const ws = latest();
    socket.stop();
    expect(ws.closedWith).toBeNull();
    ws.open();
    expect(ws.closedWith).toBe(1000);
  });
});
