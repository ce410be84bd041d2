import { encoreEvent } from '../../test/fixtures';
import type { EncoreEvent } from './model';
import { billedArtist, calendarUrl, canListenNow, concertShelves, reminderOffer, clockTime, concertPath, countdown, countdownText, ffmpegCommand, ffmpegExample, icecastSourceUrl, localInputToIso, maskStreamKey, neverAired, nextRefreshDelay, onAirNow, reconnecting, replayable, startingSoon, WAITING_POLL_MS } from './model';

const HOUR = 3_600_000;
const START = Date.parse('2026-12-01T20:00:00Z');

const event = (id: string, overrides: Partial<EncoreEvent> = {}): EncoreEvent => encoreEvent(id, START, overrides);

describe('concert state', () => {
  const e = event('e');
  const at = (phase: EncoreEvent['state']['phase']): EncoreEvent => ({ ...e, owned: true, state: { ...e.state, phase } });
  it('lets a ticket holder listen from the doors until the replay ends, never before the doors', () => {
    expect(canListenNow(at('upcoming'))).toBe(false);
    expect(canListenNow(at('doors'))).toBe(true);
    expect(canListenNow(at('live'))).toBe(true);
    expect(canListenNow(at('replay'))).toBe(true);
    expect(canListenNow(at('expired'))).toBe(false);
    expect(canListenNow(at('cancelled'))).toBe(false);
    expect(canListenNow({ ...at('live'), owned: false })).toBe(false);
  });
  it('refreshes at the soonest next change, and not at all when nothing changes by the clock', () => {
    const now = START - HOUR;
    const later = { nextChangeAt: new Date(START).toISOString() };
    const sooner = { nextChangeAt: new Date(START - 15 * 60_000).toISOString() };
    expect(nextRefreshDelay([later, sooner, { nextChangeAt: null }], now)).toBe(45 * 60_000);
    expect(nextRefreshDelay([{ nextChangeAt: null }], now)).toBeNull();
    expect(nextRefreshDelay([], now)).toBeNull();
  });
  it('asks again every 15 s while a show waits for its artist (its arrival is no clock change)', () => {
    const waiting = { nextChangeAt: new Date(START + HOUR).toISOString(), reason: 'awaiting_encoder' as const };
    expect(nextRefreshDelay([waiting], START)).toBe(WAITING_POLL_MS);
    expect(nextRefreshDelay([waiting, { nextChangeAt: new Date(START + 5000).toISOString() }], START)).toBe(5000);
    expect(nextRefreshDelay([{ ...waiting, reason: 'on_air' as const }], START)).toBe(HOUR);
  });
  it('reads "Live now" only on air: a show past its start with nothing aired is starting soon', () => {
    expect(startingSoon({ phase: 'live', reason: 'awaiting_encoder' })).toBe(true);
    expect(onAirNow({ phase: 'live', reason: 'awaiting_encoder' })).toBe(false);
    expect(onAirNow({ phase: 'live', reason: 'on_air' })).toBe(true);
    expect(onAirNow({ phase: 'live', reason: 'on_air_early' })).toBe(true);
    expect(startingSoon({ phase: 'doors', reason: null })).toBe(false);
  });
  it('reads a show whose encoder is away as reconnecting, still among the live ones', () => {
    expect(reconnecting({ phase: 'live', reason: 'reconnecting' })).toBe(true);
    expect(onAirNow({ phase: 'live', reason: 'reconnecting' })).toBe(true);
    expect(reconnecting({ phase: 'live', reason: 'on_air' })).toBe(false);
  });
  it('offers a replay only of a show that aired', () => {
    const replay = { phase: 'replay', reason: 'scheduled_end' } as EncoreEvent['state'];
    expect(replayable({ state: replay, status: 'live' })).toBe(true);
    expect(replayable({ state: { ...replay, reason: 'ended' }, status: 'ended' })).toBe(true);
    expect(replayable({ state: replay, status: 'published' })).toBe(false);
    expect(replayable({ state: { ...replay, phase: 'live' }, status: 'live' })).toBe(false);
  });
  it('reads a concert past its scheduled end with nothing aired as not aired, with nothing to listen to', () => {
    const silent = { phase: 'replay', reason: 'scheduled_end' } as EncoreEvent['state'];
    expect(neverAired(silent)).toBe(true);
    expect(neverAired({ phase: 'replay', reason: 'ended' })).toBe(false);
    expect(neverAired({ phase: 'live', reason: 'awaiting_encoder' })).toBe(false);
    expect(canListenNow({ owned: true, state: silent })).toBe(false);
    expect(canListenNow({ owned: true, state: { ...silent, reason: 'ended' } })).toBe(true);
  });
  it('shelves the public lists: on air, coming up (a show waiting for its artist among them), replays; never a show that did not air', () => {
    const state = (phase: EncoreEvent['state']['phase'], reason: EncoreEvent['state']['reason']): EncoreEvent['state'] => ({ ...e.state, phase, reason });
    const onAir = event('on-air', { status: 'live', state: state('live', 'on_air') });
    const waiting = event('waiting', { state: state('live', 'awaiting_encoder') });
    const later = event('later');
    const doors = event('doors', { state: state('doors', null) });
    const replay = event('replay', { status: 'ended', state: state('replay', 'ended') });
    const silent = event('silent', { state: state('replay', 'scheduled_end') });
    const shelves = concertShelves([onAir, waiting, later, doors, replay, silent]);
    expect(shelves.live.map((x) => x.id)).toEqual(['on-air']);
    expect(shelves.upcoming.map((x) => x.id)).toEqual(['waiting', 'later', 'doors']);
    expect(shelves.replays.map((x) => x.id)).toEqual(['replay']);
  });
  it('waits at least a second for a change already due, and at most what a timer can hold', () => {
    expect(nextRefreshDelay([{ nextChangeAt: new Date(START).toISOString() }], START + 5000)).toBe(1000);
    expect(nextRefreshDelay([{ nextChangeAt: new Date(START + 60 * 86_400_000).toISOString() }], START)).toBe(2 ** 31 - 1);
  });
  it('shows the doors time in the language digits and links the calendar and the public page', () => {
    expect(clockTime('2026-12-01T19:45:00Z', 'fa-IR')).toMatch(/[۰-۹]/);
    expect(clockTime('2026-12-01T19:45:00Z', 'en-GB')).toMatch(/^\d\d:\d\d$/);
    expect(calendarUrl('a b')).toBe('/api/v1/events/a%20b/calendar.ics');
    expect(concertPath('e1')).toBe('/concerts/e1');
  });
});

describe('doors reminder', () => {
  const e = event('e');
  const at = (phase: EncoreEvent['state']['phase']): EncoreEvent => ({ ...e, state: { ...e.state, phase } });
  it('asks a visitor to sign in, lets a ticketless fan ask and cancel, and only notes it for a holder', () => {
    expect(reminderOffer(e, false)).toBe('sign-in');
    expect(reminderOffer(e, true)).toBe('ask');
    expect(reminderOffer({ ...e, reminder: true }, true)).toBe('asked');
    expect(reminderOffer({ ...e, owned: true }, true)).toBe('holder');
    expect(reminderOffer({ ...e, owned: true, reminder: true }, true)).toBe('holder');
  });
  it('offers nothing once the doors are open or the concert is over', () => {
    for (const phase of ['doors', 'live', 'replay', 'expired', 'cancelled', 'draft'] as const) {
      expect(reminderOffer(at(phase), true)).toBe('none');
      expect(reminderOffer({ ...at(phase), reminder: true }, true)).toBe('none');
      expect(reminderOffer(at(phase), false)).toBe('none');
    }
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
});

describe('encoder help', () => {
  it('builds the Icecast source URL and the ffmpeg example from the encoder URL', () => {
    expect(icecastSourceUrl('icecast://live.example.com:8000/live/e1', 'k/y')).toBe('icecast://source:k%2Fy@live.example.com:8000/live/e1');
    expect(ffmpegExample('icecast://h:8000/live/e1', 'KEY')).toBe(
      'ffmpeg -re -i input.mp3 -c:a aac -b:a 128k -f adts -content_type audio/aac icecast://source:KEY@h:8000/live/e1',
    );
    expect(ffmpegExample('icecast://h:8000/live/e1', 'KEY', { audio: 'flac' })).toBe(
      'ffmpeg -re -i input.flac -c:a flac -frame_size 1024 -f ogg -page_duration 1000 -content_type application/ogg icecast://source:KEY@h:8000/live/e1',
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
    const flac = ffmpegCommand('icecast://h:8000/live/e1', 'k/y+Secret1234', 'STREAM_KEY', 'flac');
    expect(flac.shown).toMatch(/^ffmpeg -re -i input\.flac -c:a flac .*source:\u2022+1234@/u);
    expect(flac.copied).toContain('source:k%2Fy%2BSecret1234@');
  });

  it('shows and copies the placeholder when the key is not known', () => {
    const { shown, copied } = ffmpegCommand('icecast://h:8000/live/e1', null, 'STREAM_KEY');
    expect(shown).toBe(copied);
    expect(shown).toContain('icecast://source:STREAM_KEY@h:8000/live/e1');
  });
});

describe('billedArtist', () => {
  it('is the name typed, else the project name', () => {
    expect(billedArtist('  The Night Owls ', 'Owl Project')).toBe('The Night Owls');
    expect(billedArtist('', 'Owl Project')).toBe('Owl Project');
    expect(billedArtist('   ', ' Owl Project ')).toBe('Owl Project');
  });
});
