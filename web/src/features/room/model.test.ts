import { chatMessage, chatReport, chatRoom as room, moderationEntry } from '../../test/room-fixtures';
import type { ChatMessage, ChatRoom, LiveRoom, ReactionWindow } from './model';
import {
  addWindow,
  canDelete,
  canReport,
  combineRoom,
  emptyLiveReports,
  emptyLiveRoom,
  linkify,
  meterWindows,
  liveReportsReducer,
  liveRoomReducer,
  moderationLine,
  openReports,
  mergeMessages,
  messageLength,
  playerPosition,
  reactionMeter,
  roomAbilities,
  sendable,
  takeReactions,
  visibleMessages,
  windowsFromSeconds,
  withoutMessage,
} from './model';

/** A message at `mediaTime` of the show, posted at `postedAt`. */
const message = (id: string, mediaTime: number, postedAt = '2026-11-24T20:00:00Z', extra: Partial<ChatMessage> = {}): ChatMessage =>
  chatMessage(id, { mediaTime, postedAt, ...extra });

const ids = (messages: readonly ChatMessage[]): string[] => messages.map((m) => m.id);

describe('room: visible messages', () => {
  const messages = [message('c', 3000), message('a', 1000), message('b', 2000)];

  it('shows a message once the position reaches its media time', () => {
    expect(ids(visibleMessages(messages, 1999))).toEqual(['a']);
    expect(ids(visibleMessages(messages, 2000))).toEqual(['a', 'b']);
    expect(ids(visibleMessages(messages, 0))).toEqual([]);
  });

  it('shows everything, in order, when the player does not play the show', () => {
    expect(ids(visibleMessages(messages, null))).toEqual(['a', 'b', 'c']);
  });

  it('orders by media time, then posting time, then id', () => {
    const same = [
      message('z', 1000, '2026-11-24T20:00:02Z'),
      message('y', 1000, '2026-11-24T20:00:01Z'),
      message('b', 1000, '2026-11-24T20:00:01Z'),
      message('x', 500, '2026-11-24T20:00:09Z'),
    ];
    expect(ids(visibleMessages(same, null))).toEqual(['x', 'b', 'y', 'z']);
  });
});

describe('room: merging and deleting', () => {
  it('merges pages and socket messages once each, the newer copy winning', () => {
    const page = [message('a', 1000), message('b', 2000)];
    const socket = [message('b', 2000, undefined, { text: 'edited' }), message('c', 1500)];
    const merged = mergeMessages(page, socket);
    expect(ids(merged)).toEqual(['a', 'c', 'b']);
    expect(merged[2]?.text).toBe('edited');
  });

  it('keeps the newest messages past the limit', () => {
    const many = Array.from({ length: 5 }, (_, i) => message(`m${String(i)}`, i * 1000));
    expect(ids(mergeMessages(many, [], 3))).toEqual(['m2', 'm3', 'm4']);
  });

  it('removes a deleted message', () => {
    expect(ids(withoutMessage([message('a', 1), message('b', 2)], 'a'))).toEqual(['b']);
  });
});

describe('room: live state beside the pages', () => {
  const loaded = (messages: ChatMessage[], startedAt: number, extra: Partial<ChatRoom> = {}) => ({ messages, room: room(extra), startedAt });

  it('keeps socket messages that came after the fetch started, drops deleted ones everywhere', () => {
    let live: LiveRoom = emptyLiveRoom();
    live = liveRoomReducer(live, { type: 'message', message: message('old', 500), at: 1_000 });
    live = liveRoomReducer(live, { type: 'message', message: message('new', 3000), at: 10_000 });
    live = liveRoomReducer(live, { type: 'deleted', messageId: 'b' });
    const shown = combineRoom(loaded([message('a', 1000), message('b', 2000)], 9_000), live);
    expect(ids(shown.messages)).toEqual(['a', 'new']);
  });

  it('never brings a deleted message back, from the socket or from a page', () => {
    let live = liveRoomReducer(emptyLiveRoom(), { type: 'deleted', messageId: 'a' });
    live = liveRoomReducer(live, { type: 'message', message: message('a', 1000), at: 10_000 });
    expect(live.arrived).toEqual([]);
    expect(ids(combineRoom(loaded([message('a', 1000)], 9_000), live).messages)).toEqual([]);
  });

  it('applies a chat_room that came after the fetch, and unpins a deleted message', () => {
    const pinned = message('p', 100);
    const base = loaded([pinned], 5_000, { pinned });
    const settings = { pinned: null, slowModeSeconds: 30, closed: true };
    const before = liveRoomReducer(emptyLiveRoom(), { type: 'settings', room: settings, at: 4_000 });
    expect(combineRoom(base, before).room?.slowModeSeconds).toBe(0);
    const after = liveRoomReducer(emptyLiveRoom(), { type: 'settings', room: settings, at: 6_000 });
    expect(combineRoom(base, after).room).toMatchObject({ slowModeSeconds: 30, closed: true, pinned: null, postingOpen: true });
    expect(combineRoom(base, liveRoomReducer(emptyLiveRoom(), { type: 'deleted', messageId: 'p' })).room?.pinned).toBeNull();
  });

  it('has nothing before the first page', () => {
    expect(combineRoom(undefined, emptyLiveRoom())).toEqual({ messages: [], room: null });
  });
});

describe('room: reactions', () => {
  const window = (mediaTime: number, applause: number, receivedAt = 0, heart = 0, fire = 0): ReactionWindow => ({
    mediaTime,
    counts: { applause, heart, fire },
    receivedAt,
  });

  it('keeps windows in media-time order', () => {
    let windows: ReactionWindow[] = [];
    for (const at of [3000, 1000, 2000, 2000]) windows = addWindow(windows, window(at, 1));
    expect(windows.map((w) => w.mediaTime)).toEqual([1000, 2000, 2000, 3000]);
    expect(addWindow(windows, window(4000, 1), 2).map((w) => w.mediaTime)).toEqual([3000, 4000]);
  });

  it('sums the last ten seconds of media time at or before the position', () => {
    const windows = [window(1000, 1), window(5000, 2, 0, 1), window(12_000, 4, 0, 0, 3), window(30_000, 8)];
    expect(reactionMeter(windows, 12_000, 0)).toEqual({ applause: 6, heart: 1, fire: 3, total: 10 });
    // Reached only when the player gets there.
    expect(reactionMeter(windows, 11_999, 0).total).toBe(3);
    expect(reactionMeter(windows, 25_000, 0).total).toBe(0);
  });

  it('without a position, sums what arrived in the last ten seconds', () => {
    const windows = [window(1000, 1, 1_000), window(2000, 2, 15_000), window(90_000, 3, 19_000)];
    expect(reactionMeter(windows, null, 20_000).total).toBe(5);
  });

  it('reads the stored seconds as windows', () => {
    expect(windowsFromSeconds([{ second: 3, applause: 1, heart: 2, fire: 0 }, { second: 1, applause: 0, heart: 0, fire: 5 }], 7)).toEqual([
      { mediaTime: 1000, counts: { applause: 0, heart: 0, fire: 5 }, receivedAt: 7 },
      { mediaTime: 3000, counts: { applause: 1, heart: 2, fire: 0 }, receivedAt: 7 },
    ]);
  });

  it('uses the stored seconds only before the socket brought any', () => {
    const stored = windowsFromSeconds([1, 2, 3, 4].map((second) => ({ second, applause: 1, heart: 0, fire: 0 })), 0);
    expect(meterWindows([], stored)).toHaveLength(4);
    expect(meterWindows([window(3500, 5)], stored).map((w) => w.mediaTime)).toEqual([1000, 2000, 3500]);
  });

  it('sends clicks in batches of at most 20 per reaction', () => {
    expect(takeReactions({ applause: 3, fire: 0 })).toEqual({ send: [{ kind: 'applause', count: 3 }], left: {} });
    expect(takeReactions({ heart: 45 })).toEqual({ send: [{ kind: 'heart', count: 20 }], left: { heart: 25 } });
    expect(takeReactions({})).toEqual({ send: [], left: {} });
  });
});

describe('room: the player position', () => {
  it('is the current time in ms while the player plays this show', () => {
    expect(playerPosition({ concertId: 'c1', playing: true, currentTime: 12.3456 }, 'c1')).toBe(12346);
    expect(playerPosition({ concertId: 'c2', playing: true, currentTime: 12 }, 'c1')).toBeNull();
    expect(playerPosition({ concertId: 'c1', playing: false, currentTime: 12 }, 'c1')).toBeNull();
    expect(playerPosition({ concertId: null, playing: false, currentTime: 0 }, 'c1')).toBeNull();
  });
});

describe('room: links', () => {
  it('splits text and http(s) links', () => {
    expect(linkify('see https://example.com/a?b=1 now')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ' now' },
    ]);
  });

  it('leaves sentence punctuation outside the link, and keeps a bracket that belongs to it', () => {
    expect(linkify('(see http://a.example/x).')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'link', text: 'http://a.example/x', href: 'http://a.example/x' },
      { kind: 'text', text: ').' },
    ]);
    expect(linkify('https://en.wikipedia.org/wiki/Encore_(concert)!')[0]).toEqual({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Encore_(concert)',
      href: 'https://en.wikipedia.org/wiki/Encore_(concert)',
    });
  });

  it('never links other schemes, and keeps markup as text', () => {
    expect(linkify('javascript:alert(1) <b>hi</b> ftp://x.example')).toEqual([{ kind: 'text', text: 'javascript:alert(1) <b>hi</b> ftp://x.example' }]);
    expect(linkify('')).toEqual([]);
  });

  it('finds links inside Persian text', () => {
    const parts = linkify('سلام https://example.com خوش آمدید');
    expect(parts.map((p) => p.kind)).toEqual(['text', 'link', 'text']);
    expect(parts[1]).toMatchObject({ href: 'https://example.com/' });
  });
});

describe('room: posting rules', () => {
  it('counts characters as the server does', () => {
    expect(messageLength('👏👏')).toBe(2);
    expect(sendable('   ')).toBe(false);
    expect(sendable('a'.repeat(500))).toBe(true);
    expect(sendable('a'.repeat(501))).toBe(false);
  });

  it('says what the reader may do', () => {
    const now = Date.parse('2026-11-24T20:00:00Z');
    expect(roomAbilities(room(), now)).toEqual({ post: true, react: true, moderate: false, reason: null });
    expect(roomAbilities(room({ postingOpen: false }), now)).toMatchObject({ post: false, react: false, reason: 'readOnly' });
    expect(roomAbilities(room({ closed: true }), now)).toMatchObject({ post: false, reason: 'closed' });
    expect(roomAbilities(room({ closed: true }, { moderator: true }), now)).toMatchObject({ post: true, moderate: true });
    expect(roomAbilities(room({}, { muted: true, mutedUntil: '2026-11-24T20:05:00Z' }), now)).toMatchObject({ post: false, reason: 'muted' });
    // The rest of the show: no end given.
    expect(roomAbilities(room({}, { muted: true, mutedUntil: null }), now)).toMatchObject({ post: false, reason: 'muted' });
    // A timeout that ended while the page was open.
    expect(roomAbilities(room({}, { muted: true, mutedUntil: '2026-11-24T19:55:00Z' }), now).post).toBe(true);
    expect(roomAbilities(null, now).post).toBe(false);
  });

  it('lets authors delete their own, moderators any, and report only others', () => {
    const mine = message('m', 1, undefined, { accountId: 'me' });
    const theirs = message('t', 1);
    expect(canDelete(room(), mine)).toBe(true);
    expect(canDelete(room(), theirs)).toBe(false);
    expect(canDelete(room({}, { moderator: true }), theirs)).toBe(true);
    expect(canReport(room(), mine)).toBe(false);
    expect(canReport(room(), theirs)).toBe(true);
  });
});

describe('room: the moderation log', () => {
  it('reads each action as a line: its figures, whom, and what it quotes', () => {
    const pinned = message('p', 1, undefined, { text: 'Welcome' });
    expect(moderationLine(moderationEntry('1', 'timeout_1h', { accountId: 'ben' }))).toEqual({ key: 'timeout_1h', values: { hours: 1 }, accountId: 'ben', quote: null });
    expect(moderationLine(moderationEntry('2', 'slow_mode', { detail: '600' })).values).toEqual({ seconds: 600 });
    expect(moderationLine(moderationEntry('3', 'slow_mode', { detail: '0' })).key).toBe('slow_off');
    expect(moderationLine(moderationEntry('4', 'delete', { accountId: 'ben', detail: 'gone text' })).quote).toBe('gone text');
    expect(moderationLine(moderationEntry('5', 'unpin', { messageId: 'p' }), [pinned]).quote).toBe('Welcome');
    expect(moderationLine(moderationEntry('6', 'dismiss_report', { messageId: 'x' }), [pinned])).toMatchObject({ key: 'dismiss_report', quote: null });
    // An action this client does not know yet is shown by its name.
    expect(moderationLine(moderationEntry('7', 'mute_reactions'))).toMatchObject({ key: 'other', values: { action: 'mute_reactions' } });
  });
});

describe('room: open reports', () => {
  const report = (id: string, messageId: string, createdAt: string) => chatReport(id, message(messageId, 1), { createdAt });
  const fetched = [report('r1', 'm1', '2030-01-01T12:00:00Z'), report('r2', 'm2', '2030-01-01T12:02:00Z')];

  it('merges the fetched list and the live reports once each, newest first', () => {
    let live = liveReportsReducer(emptyLiveReports(), { type: 'reported', report: report('r3', 'm3', '2030-01-01T12:03:00Z') });
    live = liveReportsReducer(live, { type: 'reported', report: report('r2', 'm2', '2030-01-01T12:02:00Z') });
    expect(openReports(fetched, live, []).map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
    expect(openReports(undefined, live, []).map((r) => r.id)).toEqual(['r3', 'r2']);
    expect(openReports(fetched, live, [], 2).map((r) => r.id)).toEqual(['r3', 'r2']);
  });

  it('drops a dismissed report, even from a list fetched before, and the reports of a deleted message', () => {
    const live = liveReportsReducer(emptyLiveReports(), { type: 'dismissed', reportId: 'r1' });
    expect(openReports(fetched, live, []).map((r) => r.id)).toEqual(['r2']);
    expect(openReports(fetched, emptyLiveReports(), ['m2']).map((r) => r.id)).toEqual(['r1']);
    // A report dismissed before it arrived live stays dismissed.
    expect(liveReportsReducer(live, { type: 'reported', report: report('r1', 'm1', '2030-01-01T12:00:00Z') }).arrived).toHaveLength(1);
    expect(openReports([], liveReportsReducer(live, { type: 'reported', report: report('r1', 'm1', '2030-01-01T12:00:00Z') }), [])).toEqual([]);
  });
});
