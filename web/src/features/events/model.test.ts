import type { EncoreEvent } from './model';
import { accessState, countdown, countdownText, ffmpegCommand, ffmpegExample, icecastSourceUrl, maskStreamKey, localInputToIso, toMinorUnits } from './model';

const HOUR = 3_600_000;
const START = Date.parse('2026-12-01T20:00:00Z');

function event(id: string, overrides: Partial<EncoreEvent> = {}): EncoreEvent {
  return {
    id,
    projectId: 'p',
    title: id,
    artistName: 'A',
    description: '',
    image: null,
    thumbnail: null,
    startsAt: new Date(START).toISOString(),
    durationMinutes: 90,
    accessUntil: new Date(START + 24 * HOUR).toISOString(),
    price: 1000,
    currency: 'EUR',
    capacity: null,
    seatsLeft: null,
    status: 'published',
    access: 'upcoming',
    owned: false,
    notOnSale: null,
    ...overrides,
  };
}

describe('access state', () => {
  const e = event('e');
  it('is upcoming before the start', () => {
    expect(accessState(e, START - 1)).toBe('upcoming');
  });
  it('is live from the start for the expected duration', () => {
    expect(accessState(e, START)).toBe('live');
    expect(accessState(e, START + 89 * 60_000)).toBe('live');
  });
  it('is live while the server says so, even past the expected end', () => {
    expect(accessState({ ...e, status: 'live' }, START + 3 * HOUR)).toBe('live');
  });
  it('is live before the start once the server says so (the artist started early), as the server rules', () => {
    expect(accessState({ ...e, status: 'live' }, START - 10 * 60_000)).toBe('live');
  });
  it('offers the replay until start + 24 h, then expires', () => {
    expect(accessState(e, START + 2 * HOUR)).toBe('replay');
    expect(accessState({ ...e, status: 'ended' }, START + 30 * 60_000)).toBe('replay');
    expect(accessState(e, START + 24 * HOUR - 1)).toBe('replay');
    expect(accessState(e, START + 24 * HOUR)).toBe('expired');
  });
  it('uses start + 24 h when accessUntil is missing; cancelled wins', () => {
    expect(accessState({ ...e, accessUntil: null }, START + 25 * HOUR)).toBe('expired');
    expect(accessState({ ...e, status: 'cancelled' }, START - HOUR)).toBe('cancelled');
  });
});

describe('countdown', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    expect(countdown(START, START - (2 * 86_400_000 + 3 * HOUR + 4 * 60_000 + 5_000))).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
    expect(countdownText(countdown(START, START - (2 * 86_400_000 + 3 * HOUR + 4 * 60_000 + 5_000)))).toBe('2d 03:04:05');
    expect(countdownText(countdown(START, START - 65_000))).toBe('00:01:05');
  });
  it('never goes negative', () => {
    expect(countdown(START, START + 10_000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});

describe('form values', () => {
  it('sends a local date-time with the zone offset', () => {
    const iso = localInputToIso('2026-12-01T20:30');
    expect(iso).toMatch(/^2026-12-01T20:30:00[+-]\d\d:\d\d$/);
    expect(new Date(iso).getTime()).toBe(new Date('2026-12-01T20:30').getTime());
  });
  it('converts major to minor units by currency digits', () => {
    expect(toMinorUnits(19.99, 2)).toBe(1999);
    expect(toMinorUnits(1500, 0)).toBe(1500);
    expect(toMinorUnits(1.234, 3)).toBe(1234);
  });
});

describe('encoder help', () => {
  it('builds the Icecast source URL and the ffmpeg example from the encoder URL', () => {
    expect(icecastSourceUrl('icecast://live.example.com:8000/live/e1', 'k/y')).toBe('icecast://source:k%2Fy@live.example.com:8000/live/e1');
    expect(ffmpegExample('icecast://h:8000/live/e1', 'KEY')).toBe(
      'ffmpeg -re -i input.mp3 -c:a aac -b:a 128k -f adts -content_type audio/aac icecast://source:KEY@h:8000/live/e1',
    );
  });

  it('masks a stream key with bullets and its last four characters', () => {
    expect(maskStreamKey('abcdefghijkl')).toBe('\u2022'.repeat(8) + 'ijkl');
    // A short key still shows at least four bullets.
    expect(maskStreamKey('xyz')).toBe('\u2022'.repeat(4) + 'xyz');
  });

  it('shows the ffmpeg command with the key as bullets, not percent-encoded, and copies the real key', () => {
    const { shown, copied } = ffmpegCommand('icecast://h:8000/live/e1', 'k/y+Secret1234', 'STREAM_KEY');
    expect(shown).toContain(`icecast://source:${'\u2022'.repeat(10)}1234@h:8000/live/e1`);
    expect(shown).not.toContain('%E2%80%A2');
    expect(shown).not.toContain('Secret');
    expect(copied).toContain('icecast://source:k%2Fy%2BSecret1234@h:8000/live/e1');
  });

  it('shows and copies the placeholder when the key is not known', () => {
    const { shown, copied } = ffmpegCommand('icecast://h:8000/live/e1', null, 'STREAM_KEY');
    expect(shown).toBe(copied);
    expect(shown).toContain('icecast://source:STREAM_KEY@h:8000/live/e1');
  });
});
