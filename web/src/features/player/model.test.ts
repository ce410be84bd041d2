import type { SessionAction, SessionState } from './model';
import { INITIAL_SESSION, aacClass, catchUpRate, formatClock, formatCount, formatLatency, initSampleRate, isTicking, levelFor, parseDenial, parseQuality, position, qualityChoices, recordingUrlOf, renditionOf, sessionReducer, timeLeft } from './model';

describe('player model', () => {
  it('reads the Encore-Denied header; anything unknown is invalid', () => {
    expect(parseDenial('superseded')).toBe('superseded');
    expect(parseDenial('expired')).toBe('expired');
    expect(parseDenial('invalid')).toBe('invalid');
    expect(parseDenial(null)).toBe('invalid');
  });

  it('formats the clock', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(75.9)).toBe('1:15');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });

  it('writes every number in the language\'s own digits', () => {
    expect(formatClock(754, 'fa-IR')).toBe('۱۲:۳۴');
    expect(formatClock(3725, 'fa-IR')).toBe('۱:۰۲:۰۵');
    expect(formatClock(754, 'zh-CN')).toBe('12:34');
    expect(formatLatency(1.04)).toBe('1.0');
    expect(formatLatency(1.04, 'fa-IR')).toBe('۱٫۰');
    expect(formatLatency(0.96, 'pt-BR')).toBe('1,0');
    expect(formatLatency(-0.2)).toBe('0.0');
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(1234, 'fa-IR')).toBe('۱٬۲۳۴');
    expect(formatCount(1234, 'es')).toMatch(/^1.?234$/);
  });

  it('is at the live edge only when live and within 3 s of it', () => {
    expect(position(58, { start: 0, end: 60 }, true, 59).atLiveEdge).toBe(true);
    expect(position(10, { start: 0, end: 60 }, true, 59).atLiveEdge).toBe(false);
    expect(position(59, { start: 0, end: 60 }, false, null).atLiveEdge).toBe(false);
    expect(position(12, { start: 2, end: 60 }, true, null)).toMatchObject({ elapsed: 10, duration: 58 });
  });
});

describe('listening session state machine', () => {
  const run = (...actions: SessionAction[]): SessionState => actions.reduce(sessionReducer, INITIAL_SESSION);

  it('connects, then plays the session the server opened', () => {
    const state = run({ type: 'open' }, { type: 'opened', playlistUrl: '/stream/t/index.m3u8', masterUrl: '/stream/t/master.m3u8' }, { type: 'playing' });
    expect(state).toEqual({ playlistUrl: '/stream/t/index.m3u8', masterUrl: '/stream/t/master.m3u8', phase: { kind: 'playing' }, live: null });
  });

  it('forgets whether the last session was live when a new one opens', () => {
    const state = run({ type: 'opened', playlistUrl: '/a' }, { type: 'playlist', live: false }, { type: 'open' }, { type: 'opened', playlistUrl: '/b' });
    expect(state.live).toBeNull();
    expect(state.playlistUrl).toBe('/b');
  });

  it('a refusal drops the session and keeps the server’s words', () => {
    const state = run({ type: 'opened', playlistUrl: '/a' }, { type: 'refused', message: 'Refunded.' });
    expect(state.playlistUrl).toBeNull();
    expect(state.phase).toEqual({ kind: 'refused', message: 'Refunded.' });
  });

  it('waits for the artist, plays, and stops when another device takes over', () => {
    const state = run({ type: 'opened', playlistUrl: '/a' }, { type: 'waiting' }, { type: 'playing' }, { type: 'denied', denial: 'superseded' });
    expect(state.phase).toEqual({ kind: 'denied', denial: 'superseded' });
    expect(isTicking(state.phase)).toBe(false);
    expect(isTicking(run({ type: 'waiting' }).phase)).toBe(true);
  });
});

describe('timeLeft', () => {
  it('reads in whole minutes, a last minute as "1 min", never "0 min"', () => {
    expect(timeLeft((23 * 60 + 58) * 60_000 + 13_000)).toEqual({ days: 0, hours: 23, minutes: 58 });
    expect(timeLeft(24 * 3_600_000 - 500)).toEqual({ days: 0, hours: 23, minutes: 59 });
    expect(timeLeft(30_000)).toEqual({ days: 0, hours: 0, minutes: 1 });
    expect(timeLeft((2 * 1440 + 3 * 60) * 60_000)).toEqual({ days: 2, hours: 3, minutes: 0 });
    expect(timeLeft(-5)).toEqual({ days: 0, hours: 0, minutes: 0 });
  });
});

describe('recordingUrlOf', () => {
  it('signs the set download with the token of the session playing', () => {
    expect(recordingUrlOf('ev 1', '/stream/abc.def/index.m3u8')).toBe('/api/v1/events/ev%201/recording.m4a?session=abc.def');
    expect(recordingUrlOf('ev', '/stream/abc/standard/index.m3u8')).toBe('/api/v1/events/ev/recording.m4a?session=abc');
    expect(recordingUrlOf('ev', '/stream/abc/master.m3u8', 'flac')).toBe('/api/v1/events/ev/recording.flac?session=abc');
  });
  it('has none for a path that is not a stream', () => {
    expect(recordingUrlOf('ev', '/api/v1/events')).toBeNull();
  });
});

describe('renditions and the quality menu', () => {
  const level = (uri: string, codecs: string, averageBitrate: number) => ({ uri, codecs, bitrate: averageBitrate * 1.2, averageBitrate });
  const LEVELS = [
    level('https://encore.example/stream/tok/standard/index.m3u8?s=1', 'mp4a.40.2', 134_000),
    level('https://encore.example/stream/tok/saver/index.m3u8', 'mp4a.40.2', 51_000),
    level('https://encore.example/stream/tok/source/index.m3u8', 'mp4a.40.2', 201_000),
    level('https://encore.example/stream/tok/lossless/index.m3u8', 'fLaC', 900_000),
    level('https://encore.example/stream/tok/other/index.m3u8', 'mp4a.40.2', 64_000),
  ];
  const renditions = LEVELS.flatMap((l, i) => renditionOf(l, i) ?? []);

  it('names each level by its directory and codec, with the bit rate class', () => {
    expect(renditions).toEqual([
      { level: 0, name: 'standard', codec: 'aac', kbps: 128, sampleRate: null },
      { level: 1, name: 'saver', codec: 'aac', kbps: 48, sampleRate: null },
      { level: 2, name: 'high', codec: 'aac', kbps: 192, sampleRate: null },
      { level: 3, name: 'lossless', codec: 'flac', kbps: null, sampleRate: null },
    ]);
  });

  it('offers Auto and what the show has, Lossless only where FLAC plays', () => {
    expect(qualityChoices(renditions, true)).toEqual(['auto', 'saver', 'standard', 'high', 'lossless']);
    expect(qualityChoices(renditions, false)).toEqual(['auto', 'saver', 'standard', 'high']);
    expect(qualityChoices(renditions.slice(0, 2), true)).toEqual(['auto', 'saver', 'standard']);
  });

  it('a choice the show lacks plays Auto', () => {
    expect(levelFor('saver', renditions)).toBe(1);
    expect(levelFor('lossless', renditions)).toBe(3);
    expect(levelFor('auto', renditions)).toBe(-1);
    expect(levelFor('lossless', renditions.slice(0, 2))).toBe(-1);
  });

  it('reads a stored quality, anything else as Auto', () => {
    expect(parseQuality('high')).toBe('high');
    expect(parseQuality('8k')).toBe('auto');
    expect(parseQuality(null)).toBe('auto');
    expect(aacClass(0)).toBeNull();
  });

  it('reads the sample rate of an init segment sample entry', () => {
    const entry = (kind: string, rate: number): Uint8Array => {
      const box = new Uint8Array(36 + 8);
      const view = new DataView(box.buffer);
      view.setUint32(0, box.length);
      box.set([...kind].map((c) => c.charCodeAt(0)), 4);
      view.setUint16(8 + 16, 2);
      view.setUint16(8 + 18, 16);
      view.setUint32(8 + 24, rate * 65536);
      return box;
    };
    const init = new Uint8Array(64 + 44);
    init.set(entry('fLaC', 48_000), 64);
    expect(initSampleRate(init)).toBe(48_000);
    const aac = new Uint8Array(20 + 44);
    aac.set(entry('mp4a', 44_100), 20);
    expect(initSampleRate(aac)).toBe(44_100);
    expect(initSampleRate(new Uint8Array(100))).toBeNull();
  });
});

describe('catching up with the live edge', () => {
  it('speeds a late listener up while there is buffer to spare, faster after a stall', () => {
    expect(catchUpRate(0.2, 0.9, 1)).toBe(1.1);
    expect(catchUpRate(0.6, 1.0, 1)).toBe(1.25);
  });

  it('goes on until close to the target, then plays at 1 (no flutter around the threshold)', () => {
    expect(catchUpRate(0.04, 0.8, 1)).toBe(1);
    expect(catchUpRate(0.04, 0.8, 1.1)).toBe(1.1);
    expect(catchUpRate(0.015, 0.8, 1.1)).toBe(1);
  });

  it('leaves alone a listener on time, one without the buffer for it, and one who chose to be behind', () => {
    expect(catchUpRate(0, 0.8, 1)).toBe(1);
    expect(catchUpRate(0.3, 0.35, 1)).toBe(1);
    expect(catchUpRate(12, 20, 1)).toBe(1);
    expect(catchUpRate(Number.NaN, 1, 1.1)).toBe(1);
  });
});
