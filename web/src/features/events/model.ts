import { formatTime } from '../../i18n/dates';
import type { Body, Payload, Schema } from '../../lib/api-types';

/** Concerts as the server sends them (docs/api-contract.md, "Concerts"). */
export type EventStatus = Schema<'EventStatus'>;
export type AccessState = Schema<'AccessState'>;
export type EncoreEvent = Schema<'Event'>;
/** A concert with its sales, as its managers see it (GET /events/manage). */
export type ManagedEvent = Schema<'ManagedSummary'>;
export type EventPage = Payload<'events.list'>;
export type EventSales = Schema<'Sales'>;
/** A currency code the server prices in. */
export type Currency = EncoreEvent['currency'];
/** A new concert (POST /events); an update (PUT) takes the same fields, each optional. */
export type EventInput = Body<'events.create'>;
export type EventChange = Body<'events.update'>;

/** Concerts per page on the events page. */
export const EVENTS_PAGE_SIZE = 12;

/** Concerts per page on my-events. */
export const MY_EVENTS_PAGE_SIZE = 12;

/** Where a concert stands, computed by the server (one truth for every page): its phase,
 * why, its times and when it changes next. */
export type ConcertState = Schema<'StateView'>;
export type Phase = Schema<'Phase'>;

/** The phases in which a ticket holder may open the player: from the doors (15 minutes
 * before the start, or earlier when the show is already on air) until the replay ends. */
export const LISTENABLE_PHASES: readonly Phase[] = ['doors', 'live', 'replay'];

/** Phases a fan still cares about (the dashboard's next concerts). */
export const ACTIVE_PHASES: readonly Phase[] = ['upcoming', 'doors', 'live', 'replay'];

/** The fan holds a ticket (or pass) and the concert is open for listening now (a concert
 * that never aired has nothing to play once its scheduled time is over). */
export function canListenNow(event: Pick<EncoreEvent, 'owned' | 'state'>): boolean {
  return event.owned && LISTENABLE_PHASES.includes(event.state.phase) && !neverAired(event.state);
}

/** What the lobby offers about "Remind me when doors open": a holder is told anyway (a note);
 * a visitor signs in first; a signed-in fan asks, or has asked and may cancel. Only before the
 * doors open. */
export type ReminderOffer = 'holder' | 'sign-in' | 'ask' | 'asked' | 'none';

export function reminderOffer(event: Pick<EncoreEvent, 'owned' | 'reminder' | 'state'>, signedIn: boolean): ReminderOffer {
  if (event.state.phase !== 'upcoming') return 'none';
  if (!signedIn) return 'sign-in';
  if (event.owned) return 'holder';
  return event.reminder ? 'asked' : 'ask';
}

/** Never refetch sooner than this after a change was due (the server's clock may be a little
 * behind the viewer's: it then answers the same phase once more). */
export const MIN_REFRESH_MS = 1000;

/** While a show waits for its artist, how often the concerts shown are asked again (the
 * encoder's arrival is no clock change: nothing else tells an anonymous page). */
export const WAITING_POLL_MS = 15_000;

/** Live by its schedule, nothing on air yet: "Starting soon", not "Live now". */
export function startingSoon(state: Pick<ConcertState, 'phase' | 'reason'>): boolean {
  return state.phase === 'live' && state.reason === 'awaiting_encoder';
}

/** Aired, its encoder away for now: "Reconnecting…", not LIVE (the show goes on when the
 * encoder is back, or ends by itself). */
export function reconnecting(state: Pick<ConcertState, 'phase' | 'reason'>): boolean {
  return state.phase === 'live' && state.reason === 'reconnecting';
}

/** Ended with something aired (its replay plays until `replayUntil`): a concert whose
 * scheduled end passed with nothing ever on air (still `published`) has no replay. */
export function replayable(event: Pick<EncoreEvent, 'state' | 'status'>): boolean {
  return event.state.phase === 'replay' && (event.status === 'live' || event.status === 'ended');
}

/** Its scheduled end passed with nothing ever on air (the server's `scheduled_end`: a show
 * that aired is `live` until its artist or its abandonment ends it): "Did not air", never
 * "Replay". */
export function neverAired(state: Pick<ConcertState, 'phase' | 'reason'>): boolean {
  return state.phase === 'replay' && state.reason === 'scheduled_end';
}

/** On air (or aired and not ended): what "Live now" means. */
export function onAirNow(state: Pick<ConcertState, 'phase' | 'reason'>): boolean {
  return state.phase === 'live' && !startingSoon(state);
}

/** The public lists' shelves (the home page, an artist's page): what is on air now; what is
 * coming up (a show past its start still waiting for its artist among them, first, as the
 * server lists live before the rest); the replays. A show that never aired is on none. */
export interface ConcertShelves<T> {
  live: T[];
  upcoming: T[];
  replays: T[];
}

export function concertShelves<T extends Pick<EncoreEvent, 'state' | 'status'>>(events: readonly T[]): ConcertShelves<T> {
  return {
    live: events.filter((event) => onAirNow(event.state)),
    upcoming: events.filter((event) => startingSoon(event.state) || event.state.phase === 'upcoming' || event.state.phase === 'doors'),
    replays: events.filter(replayable),
  };
}

/** Longest wait a browser timer takes (about 24.8 days); later changes are waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Milliseconds until the soonest phase change of `states` after `now`, for one timer that
 * refetches them then (a show waiting for its artist: within WAITING_POLL_MS); `null` when
 * none of them changes by the clock. */
export function nextRefreshDelay(states: readonly (Pick<ConcertState, 'nextChangeAt'> & Partial<Pick<ConcertState, 'reason'>>)[], now: number): number | null {
  let soonest: number | null = null;
  for (const state of states) {
    if (state.reason === 'awaiting_encoder' && (soonest === null || now + WAITING_POLL_MS < soonest)) soonest = now + WAITING_POLL_MS;
    if (!state.nextChangeAt) continue;
    const at = Date.parse(state.nextChangeAt);
    if (Number.isNaN(at)) continue;
    if (soonest === null || at < soonest) soonest = at;
  }
  if (soonest === null) return null;
  return Math.min(MAX_TIMER_MS, Math.max(MIN_REFRESH_MS, soonest - now));
}

/** A clock time (19:45) in the viewer's zone and the language's digits. */
export function clockTime(iso: string, locale: string): string {
  return formatTime(iso, locale);
}

/** The server's calendar file for a concert (RFC 5545, "Add to calendar"). */
export function calendarUrl(id: string): string {
  return `/api/v1/events/${encodeURIComponent(id)}/calendar.ics`;
}

/** The shareable public page of a concert. */
export function concertPath(id: string): string {
  return `/concerts/${encodeURIComponent(id)}`;
}

export interface Countdown {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Time left until `target` (never negative). */
export function countdown(target: number, now: number): Countdown {
  let rest = Math.max(0, Math.floor((target - now) / 1000));
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  return { days, hours, minutes, seconds: rest - minutes * 60 };
}

/** "2d 03:04:05" style; `days` words the day count in the chosen language. */
export function countdownText(
  value: Countdown,
  days: (count: number) => string = (count) => `${String(count)}d`,
  wrapClock: (clock: string) => string = (clock) => clock,
): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const clock = wrapClock(`${pad(value.hours)}:${pad(value.minutes)}:${pad(value.seconds)}`);
  return value.days > 0 ? `${days(value.days)} ${clock}` : clock;
}

/** Wraps text in a left-to-right isolate, so a clock reads right inside right-to-left text. */
export function isolateLtr(text: string): string {
  return `\u2066${text}\u2069`;
}

/** Local date-time input value (YYYY-MM-DDTHH:mm) → ISO with the viewer's zone offset. */
export function localInputToIso(value: string): string {
  const date = new Date(value);
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${value.length === 16 ? `${value}:00` : value}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ISO instant → local date-time input value (YYYY-MM-DDTHH:mm). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** GET/POST /events/{id}/stream-key[/rotate]: `streamKey` only in a rotation's answer. */
export type StreamKeyInfo = Schema<'StreamKey'>;

/** GET /events/{id}/live and POST /events/{id}/end. */
/** `listeners`: people listening now, in the document once the server counts them (the
 * panel shows it when the answer has it). */
export type LiveStatus = Schema<'LiveStatus'>;

/** A song title of a show, on its timeline (`atMs` from its first sample). */
export type Marker = Schema<'Marker'>;
export type MarkerInput = Schema<'MarkerInput'>;
export type MarkerChanges = Schema<'MarkerChanges'>;

/** The source URL an Icecast encoder sends to: the encoder URL with the key as password.
 * `encode: false` leaves the key as it is, for text a person reads (a masked key's
 * bullets would otherwise read as `%E2%80%A2`). */
export function icecastSourceUrl(encoderUrl: string, key: string, { encode = true }: { encode?: boolean } = {}): string {
  return encoderUrl.replace(/^icecast:\/\//, `icecast://source:${encode ? encodeURIComponent(key) : key}@`);
}

/** What an encoder sends: AAC, or lossless FLAC in Ogg (the show then has a Lossless rendition). */
export type EncoderAudio = 'aac' | 'flac';

/** ffmpeg's output options for each: FLAC in 1,024-sample blocks (an encoder holds each block
 * until it is whole: with libFLAC's usual 4,096, glass-to-ear was 1.0 s, with these 0.92 s,
 * docs/benchmarks.md; the show's parts hold a whole number of them at 44.1 and 48 kHz) and an
 * Ogg page per block (ffmpeg's default of a page a second would hold the audio back a second). */
const FFMPEG_OUTPUT: Record<EncoderAudio, string> = {
  aac: '-i input.mp3 -c:a aac -b:a 128k -f adts -content_type audio/aac',
  flac: '-i input.flac -c:a flac -frame_size 1024 -f ogg -page_duration 1000 -content_type application/ogg',
};

/** A ready-to-copy ffmpeg command that streams a file to the concert in real time. */
export function ffmpegExample(encoderUrl: string, key: string, options?: { encode?: boolean; audio?: EncoderAudio }): string {
  return `ffmpeg -re ${FFMPEG_OUTPUT[options?.audio ?? 'aac']} ${icecastSourceUrl(encoderUrl, key, options)}`;
}

/** A stream key as the screen shows it: bullets and its last four characters. */
export function maskStreamKey(key: string): string {
  const tail = key.slice(-4);
  return `${'\u2022'.repeat(Math.max(key.length - tail.length, 4))}${tail}`;
}

/** The ffmpeg command twice: `shown` with the key masked, `copied` with the real key
 * (percent-encoded in the URL), or a placeholder in both when the key is not known. */
export function ffmpegCommand(encoderUrl: string, key: string | null, placeholder: string, audio: EncoderAudio = 'aac'): { shown: string; copied: string } {
  if (key === null) {
    const both = ffmpegExample(encoderUrl, placeholder, { encode: false, audio });
    return { shown: both, copied: both };
  }
  return { shown: ffmpegExample(encoderUrl, maskStreamKey(key), { encode: false, audio }), copied: ffmpegExample(encoderUrl, key, { audio }) };
}

/** The name a concert is billed under: the one typed, else its project's (the project names
 * the artist unless the artist bills the concert otherwise). */
export function billedArtist(typed: string, projectName: string): string {
  return typed.trim() || projectName.trim();
}

/** A concert's ticket tier as its managers see it (GET /events/{id}/tiers): hidden ones too,
 * with the seats taken (docs/api-contract.md, "Ticket tiers"). */
export type ManagedTier = Schema<'ManagedTier'>;
/** A new tier (POST /events/{id}/tiers): name and price required. */
export type NewTierInput = Schema<'NewTierInput'>;
/** Changes to a tier (PUT): each field given is set; `null` clears capacity and the window. */
export type TierChanges = Schema<'TierInput'>;

/** The server's limits on a tier (the same rules answer 422 there). */
export const TIER_NAME_MAX = 120;
export const TIER_DESCRIPTION_MAX = 2000;
/** A concert sells through at most this many tiers (the next one is refused with 409). */
export const MAX_TIERS = 20;
