import { canListen, formatClock, parseDenial, position } from './model';

describe('player model', () => {
  it('lets owners listen while upcoming, live or in replay', () => {
    expect(canListen({ owned: true, access: 'live' })).toBe(true);
    expect(canListen({ owned: true, access: 'upcoming' })).toBe(true);
    expect(canListen({ owned: true, access: 'replay' })).toBe(true);
    expect(canListen({ owned: true, access: 'expired' })).toBe(false);
    expect(canListen({ owned: false, access: 'live' })).toBe(false);
  });

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

  it('is at the live edge only when live and within 3 s of it', () => {
    expect(position(58, { start: 0, end: 60 }, true, 59).atLiveEdge).toBe(true);
    expect(position(10, { start: 0, end: 60 }, true, 59).atLiveEdge).toBe(false);
    expect(position(59, { start: 0, end: 60 }, false, null).atLiveEdge).toBe(false);
    expect(position(12, { start: 2, end: 60 }, true, null)).toMatchObject({ elapsed: 10, duration: 58 });
  });
});
