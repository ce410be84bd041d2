import type { ServerMessage } from './socket-protocol';
import { chatMessage } from '../../test/room-fixtures';
import { CLOSE } from './socket-protocol';
import type { Effect, LiveEvent, LiveState } from './socket-state';
import { BACKOFF_CAP_MS, OFFLINE_AFTER, SEEN_MAX, TOO_MANY_WAIT_MS, backoffMs, initialState, isFollowed, step } from './socket-state';

const ACCOUNT = 'account:a1';
const EXPIRES = '2030-01-01T00:15:00Z';

/** Runs events from `state`, returning the last state and every effect, in order. */
function run(state: LiveState, ...events: LiveEvent[]): { state: LiveState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const event of events) {
    const next = step(state, event);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const msg = (message: ServerMessage): LiveEvent => ({ type: 'message', message });
const ready = (channels = [ACCOUNT]): LiveEvent => msg({ type: 'ready', accountId: 'a1', expiresAt: EXPIRES, channels });
const subscribed = (channel: string, offset: number, epoch = 'e1', recovered = false): LiveEvent =>
  msg({ type: 'subscribed', channel, offset, epoch, recovered });
const notification = (offset: number, id: string, epoch = 'e1'): LiveEvent =>
  msg({
    type: 'notification',
    channel: ACCOUNT,
    offset,
    epoch,
    notification: { id, type: 'topic', title: `t${id}`, body: '', read: false, createdAt: EXPIRES },
  });
/** A status with listeners, whether or not the document has them yet (not a literal: no
 * excess-property check). */
const STATUS = { publisherConnected: true, bitrateKbps: 128, recordedSeconds: 1, connectedSeconds: 1, ended: false, segments: 1, listeners: 0 };
const liveStatus = (channel: string, offset: number): LiveEvent =>
  msg({
    type: 'live_status',
    channel,
    offset,
    epoch: 'c1',
    eventId: channel.slice('event:'.length),
    status: STATUS,
  });
const closed = (code: number, random = 0.5): LiveEvent => ({ type: 'closed', code, random });

const delivered = (effects: Effect[]): string[] =>
  effects.flatMap((e) => (e.type === 'deliver' ? [`${e.message.type}@${String(e.message.offset)}`] : []));
const sent = (effects: Effect[]): unknown[] => effects.flatMap((e) => (e.type === 'send' ? [e.message] : []));
const live = (): LiveState => run(initialState(), { type: 'start' }, { type: 'opened' }, ready(), subscribed(ACCOUNT, 0)).state;

describe('live socket: connecting', () => {
  it('connects on start, authenticates once open, and is live on ready', () => {
    const started = run(initialState(), { type: 'start' });
    expect(started.state.phase).toBe('connecting');
    expect(started.effects).toEqual([{ type: 'connect' }]);
    const opened = run(started.state, { type: 'opened' });
    expect(opened.effects).toEqual([{ type: 'authenticate', since: {} }]);
    const accepted = run(opened.state, ready());
    expect(accepted.state.phase).toBe('live');
    expect(accepted.effects).toEqual([{ type: 'renewBefore', at: Date.parse(EXPIRES) }]);
  });

  it('answers the server ping with pong', () => {
    expect(sent(run(live(), msg({ type: 'ping' })).effects)).toEqual([{ type: 'pong' }]);
  });

  it('renews the token again after each reauthed', () => {
    const later = '2030-01-01T00:30:00Z';
    expect(run(live(), msg({ type: 'reauthed', expiresAt: later })).effects).toEqual([{ type: 'renewBefore', at: Date.parse(later) }]);
  });
});

describe('live socket: closing and coming back', () => {
  it('reconnects after a network loss with the positions it has seen as since', () => {
    const before = run(live(), notification(1, 'n1'), notification(2, 'n2')).state;
    const lost = run(before, closed(1006));
    expect(lost.state.phase).toBe('reconnecting');
    expect(lost.effects).toEqual([{ type: 'retryIn', ms: backoffMs(1, 0.5), refreshToken: false }]);
    const back = run(lost.state, { type: 'retry' }, { type: 'opened' });
    expect(back.effects).toEqual([{ type: 'connect' }, { type: 'authenticate', since: { [ACCOUNT]: { offset: 2, epoch: 'e1' } } }]);
  });

  it('backs off doubling, jittered, up to the cap', () => {
    expect(backoffMs(1, 0)).toBe(500);
    expect(backoffMs(1, 0.999)).toBeLessThanOrEqual(1000);
    expect(backoffMs(3, 0)).toBe(2000);
    expect(backoffMs(20, 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    expect(backoffMs(20, 0)).toBe(BACKOFF_CAP_MS / 2);
  });

  it('says it is offline after several failed attempts in a row, and live again once one succeeds', () => {
    let state = run(initialState(), { type: 'start' }).state;
    for (let i = 1; i < OFFLINE_AFTER; i++) {
      state = run(state, closed(1006), { type: 'retry' }).state;
      expect(state.phase).toBe('reconnecting');
    }
    state = run(state, closed(1006)).state;
    expect(state.phase).toBe('offline');
    const retried = run(state, { type: 'retry' });
    expect(retried.effects).toEqual([{ type: 'connect' }]);
    state = run(retried.state, { type: 'opened' }, ready()).state;
    expect(state.phase).toBe('live');
    expect(state.failures).toBe(0);
  });

  it('gets a new token before reconnecting after 4401 and 4408', () => {
    for (const code of [CLOSE.unauthorized, CLOSE.tokenExpired]) {
      const [effect] = run(live(), closed(code)).effects;
      expect(effect).toMatchObject({ type: 'retryIn', refreshToken: true });
    }
    expect(run(live(), closed(CLOSE.slowConsumer)).effects[0]).toMatchObject({ refreshToken: false });
    expect(run(live(), closed(CLOSE.goingAway)).effects[0]).toMatchObject({ refreshToken: false });
  });

  it('remembers why the socket closed until it is live again', () => {
    const closedState = run(live(), closed(CLOSE.tooManySockets)).state;
    expect(closedState.lastClose).toBe(CLOSE.tooManySockets);
    expect(run(closedState, { type: 'retry' }, { type: 'opened' }, ready()).state.lastClose).toBeNull();
  });

  it('waits at least a minute after 4429 too many sockets', () => {
    const [effect] = run(live(), closed(CLOSE.tooManySockets, 0)).effects;
    expect(effect).toEqual({ type: 'retryIn', ms: TOO_MANY_WAIT_MS, refreshToken: false });
  });

  it('signs out and never reconnects after 4403 session ended', () => {
    const ended = run(live(), closed(CLOSE.sessionEnded));
    expect(ended.state.phase).toBe('ended');
    expect(ended.effects).toEqual([{ type: 'signOut' }]);
    expect(run(ended.state, closed(1006), { type: 'retry' }).effects).toEqual([]);
  });

  it('does nothing more once stopped', () => {
    const stopped = run(live(), { type: 'stop' });
    expect(stopped.effects).toEqual([{ type: 'disconnect' }]);
    expect(run(stopped.state, closed(1006), { type: 'retry' }).effects).toEqual([]);
  });
});

describe('live socket: channel positions', () => {
  it('delivers each message once, in order, and skips what a replay repeats', () => {
    const { state, effects } = run(live(), notification(1, 'n1'), notification(2, 'n2'), notification(2, 'n2'), notification(1, 'n1'));
    expect(delivered(effects)).toEqual(['notification@1', 'notification@2']);
    expect(state.positions[ACCOUNT]).toEqual({ offset: 2, epoch: 'e1' });
  });

  it('delivers a replay after reconnecting, though subscribed names where the replay ends', () => {
    const before = run(live(), notification(1, 'n1')).state;
    const { state, effects } = run(before, closed(1001), { type: 'retry' }, { type: 'opened' }, ready(), subscribed(ACCOUNT, 3, 'e1', true), notification(2, 'n2'), notification(3, 'n3'));
    expect(effects).toContainEqual({ type: 'authenticate', since: { [ACCOUNT]: { offset: 1, epoch: 'e1' } } });
    expect(delivered(effects)).toEqual(['subscribed@3', 'notification@2', 'notification@3']);
    expect(state.positions[ACCOUNT]).toEqual({ offset: 3, epoch: 'e1' });
  });

  it('follows a new epoch from its own offsets', () => {
    const before = run(live(), notification(5, 'n5')).state;
    const { state, effects } = run(before, subscribed(ACCOUNT, 0, 'e2', false), notification(1, 'n6', 'e2'));
    expect(delivered(effects)).toEqual(['subscribed@0', 'notification@1']);
    expect(state.positions[ACCOUNT]).toEqual({ offset: 1, epoch: 'e2' });
  });

  it('passes every subscribed on, so followers refetch when it was not recovered', () => {
    const { effects } = run(initialState(), { type: 'start' }, { type: 'opened' }, ready(), subscribed(ACCOUNT, 7, 'e1', false));
    expect(effects.at(-1)).toEqual({ type: 'deliver', message: { type: 'subscribed', channel: ACCOUNT, offset: 7, epoch: 'e1', recovered: false } });
  });

  it('delivers a notification once per id, even at another offset', () => {
    const { effects, state } = run(live(), notification(1, 'n1'), subscribed(ACCOUNT, 0, 'e2'), notification(1, 'n1', 'e2'));
    expect(delivered(effects)).toEqual(['notification@1', 'subscribed@0']);
    // The position still moves on: the next reconnect does not ask for it again.
    expect(state.positions[ACCOUNT]).toEqual({ offset: 1, epoch: 'e2' });
  });

  it('remembers a bounded number of notification ids', () => {
    let state = live();
    for (let i = 1; i <= SEEN_MAX + 10; i++) state = run(state, notification(i, `n${String(i)}`)).state;
    expect(state.seen).toHaveLength(SEEN_MAX);
    expect(state.seen.at(-1)).toBe(`n${String(SEEN_MAX + 10)}`);
  });
});

describe('live socket: concert channels', () => {
  const CONCERT = 'event:c1';

  it('subscribes on the first follower only and unsubscribes after the last', () => {
    const first = run(live(), { type: 'follow', channel: CONCERT });
    expect(sent(first.effects)).toEqual([{ type: 'subscribe', channel: CONCERT }]);
    const second = run(first.state, { type: 'follow', channel: CONCERT });
    expect(second.effects).toEqual([]);
    const oneLeft = run(second.state, { type: 'release', channel: CONCERT });
    expect(oneLeft.effects).toEqual([]);
    const none = run(oneLeft.state, { type: 'release', channel: CONCERT });
    expect(sent(none.effects)).toEqual([{ type: 'unsubscribe', channel: CONCERT }]);
    expect(none.state.follows).toEqual({});
    expect(run(none.state, { type: 'release', channel: CONCERT }).effects).toEqual([]);
  });

  it('is followed once subscribed, and not when refused or not live', () => {
    let state = run(live(), { type: 'follow', channel: CONCERT }).state;
    expect(isFollowed(state, CONCERT)).toBe(false);
    state = run(state, subscribed(CONCERT, 0, 'c1')).state;
    expect(isFollowed(state, CONCERT)).toBe(true);
    expect(isFollowed(run(state, closed(1006)).state, CONCERT)).toBe(false);
    const refused = run(live(), { type: 'follow', channel: CONCERT }, msg({ type: 'error', code: 'forbidden', message: 'no', channel: CONCERT })).state;
    expect(isFollowed(refused, CONCERT)).toBe(false);
    expect(refused.channels[CONCERT]).toBe('refused');
  });

  it('follows a concert asked for before the socket was live, from its position after a reconnect', () => {
    let step1 = run(initialState(), { type: 'start' }, { type: 'follow', channel: CONCERT }, { type: 'opened' }, ready());
    expect(sent(step1.effects)).toEqual([{ type: 'subscribe', channel: CONCERT }]);
    step1 = run(step1.state, subscribed(ACCOUNT, 3), subscribed(CONCERT, 0, 'c1'), liveStatus(CONCERT, 1), liveStatus(CONCERT, 2));
    expect(delivered(step1.effects)).toEqual(['subscribed@3', 'subscribed@0', 'live_status@1', 'live_status@2']);
    const back = run(step1.state, closed(4503), { type: 'retry' }, { type: 'opened' }, ready());
    // Concerts resume through subscribe, not through auth.
    expect(back.effects).toContainEqual({ type: 'authenticate', since: { [ACCOUNT]: { offset: 3, epoch: 'e1' } } });
    expect(sent(back.effects)).toEqual([{ type: 'subscribe', channel: CONCERT, since: { offset: 2, epoch: 'c1' } }]);
  });

  it('drops what comes for a concert no longer followed', () => {
    const state = run(live(), { type: 'follow', channel: CONCERT }, subscribed(CONCERT, 0, 'c1'), { type: 'release', channel: CONCERT }).state;
    expect(run(state, liveStatus(CONCERT, 1), subscribed(CONCERT, 1, 'c1')).effects).toEqual([]);
  });
});

describe('live socket: room channels', () => {
  const ROOM = 'chat:c1';
  const chatMessageFrame = (offset: number, id: string): LiveEvent =>
    msg({
      type: 'chat_message',
      channel: ROOM,
      offset,
      epoch: 'r1',
      message: chatMessage(id, { accountId: 'a2', text: 'hi', postedAt: EXPIRES }),
    });

  it('follows a room like a concert: subscribed, its messages once each by offset, resumed through subscribe with since', () => {
    let state = run(live(), { type: 'follow', channel: ROOM }).state;
    const first = run(state, subscribed(ROOM, 0, 'r1'), chatMessageFrame(1, 'm1'), chatMessageFrame(1, 'm1'), msg({ type: 'chat_deleted', channel: ROOM, offset: 2, epoch: 'r1', eventId: 'c1', messageId: 'm1' }));
    expect(delivered(first.effects)).toEqual(['subscribed@0', 'chat_message@1', 'chat_deleted@2']);
    state = first.state;
    expect(isFollowed(state, ROOM)).toBe(true);
    const back = run(state, closed(1006), { type: 'retry' }, { type: 'opened' }, ready());
    expect(back.effects).toContainEqual({ type: 'authenticate', since: { [ACCOUNT]: { offset: 0, epoch: 'e1' } } });
    expect(sent(back.effects)).toEqual([{ type: 'subscribe', channel: ROOM, since: { offset: 2, epoch: 'r1' } }]);
  });

  it('drops a room refused by the server, and what comes for a room no longer followed', () => {
    const refused = run(live(), { type: 'follow', channel: ROOM }, msg({ type: 'error', code: 'forbidden', message: 'no', channel: ROOM })).state;
    expect(isFollowed(refused, ROOM)).toBe(false);
    const released = run(live(), { type: 'follow', channel: ROOM }, subscribed(ROOM, 0, 'r1'), { type: 'release', channel: ROOM }).state;
    expect(run(released, chatMessageFrame(1, 'm1')).effects).toEqual([]);
  });
});
