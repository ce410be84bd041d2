/**
 * The staff Live page's state: the concerts live now with their figures and listeners over
 * time, and the activity feed. Fed by GET /live (snapshots) and by the socket's `activity`
 * (staff channel) and `live_status` (event:<id>) messages; pure, so it is tested alone.
 */
import type { Schema } from '../../lib/api-types';

export type Activity = Schema<'Activity'>;

/** A concert's live figures, as `live_status` carries them. */
export type ConcertFigures = Schema<'LiveStatus'>;

/** One point of a concert's listeners-over-time chart (`at` in ms since the epoch). */
export interface ListenerPoint {
  at: number;
  listeners: number;
}

export interface LiveConcertView {
  eventId: string;
  title: string;
  artistName: string | null;
  /** The artist's project (its page is `/artists/{projectId}`); null, as the artist's name,
   * until GET /live names it. */
  projectId: string | null;
  startsAt: string | null;
  /** Null until the figures are known (a show announced by an activity, before GET /live answers). */
  status: ConcertFigures | null;
  series: ListenerPoint[];
  ended: boolean;
}

export interface FeedEntry {
  /** The activity's id: the same activity from GET /live and the socket is shown once. */
  key: string;
  activity: Activity;
}

/** What GET /live answers, as this page keeps it. */
export interface LiveSnapshot {
  concerts: Omit<LiveConcertView, 'ended'>[];
  activity: FeedEntry[];
}

export interface LivePageState {
  concerts: LiveConcertView[];
  /** Newest first, at most FEED_LIMIT. */
  feed: FeedEntry[];
}

export type LivePageAction =
  | { type: 'snapshot'; snapshot: LiveSnapshot }
  | { type: 'status'; eventId: string; status: ConcertFigures; at: number }
  | { type: 'activity'; activity: Activity };

/** Lines kept in the activity feed. */
export const FEED_LIMIT = 50;
/** The chart keeps a point every 10 s (the server's sampling) over the last 30 minutes. */
export const SAMPLE_MS = 10_000;
export const WINDOW_MS = 30 * 60_000;

/** Under this span the chart's times read with seconds: its labels, a tenth of the span or
 * so apart on a wide screen, would otherwise repeat the same minute ("20:46, 20:46"). */
export const SECONDS_UNDER_MS = 10 * 60_000;

/** How the chart writes a series' times: with seconds while it spans under
 * `SECONDS_UNDER_MS`, to the minute after. */
export function chartTimeStyle(series: readonly ListenerPoint[]): 'medium' | 'short' {
  const span = (series.at(-1)?.at ?? 0) - (series[0]?.at ?? 0);
  return span < SECONDS_UNDER_MS ? 'medium' : 'short';
}

export const INITIAL_LIVE_PAGE: LivePageState = { concerts: [], feed: [] };

export const feedEntry = (activity: Activity): FeedEntry => ({ key: activity.id, activity });

/**
 * Adds a figure to a series. The last point follows the newest figure until it is a full
 * sample after the one before it; then it stays and a new last point starts — live_status
 * comes up to once a second, the chart keeps one point per SAMPLE_MS. Points older than
 * WINDOW_MS before the newest are dropped; a figure older than the last point is ignored.
 */
export function addPoint(series: readonly ListenerPoint[], point: ListenerPoint): ListenerPoint[] {
  const last = series.at(-1);
  if (last && point.at < last.at) return [...series];
  const previous = series.at(-2);
  const kept = last && previous && last.at - previous.at < SAMPLE_MS ? series.slice(0, -1) : series;
  return [...kept, point].filter((p) => p.at >= point.at - WINDOW_MS);
}

/** The server's series, then the points this page added after its last sample. */
export function mergeSeries(server: readonly ListenerPoint[], local: readonly ListenerPoint[]): ListenerPoint[] {
  const serverEnd = server.at(-1)?.at ?? -Infinity;
  return local.filter((p) => p.at > serverEnd).reduce(addPoint, [...server]);
}

/** Newest first; of two in the same millisecond, the one that arrived later (the sort is stable). */
function byNewest(a: FeedEntry, b: FeedEntry): number {
  return Date.parse(b.activity.at) - Date.parse(a.activity.at);
}

/** Entries from both sources, each once, newest first, capped. */
export function mergeFeed(current: readonly FeedEntry[], incoming: readonly FeedEntry[]): FeedEntry[] {
  const seen = new Set(current.map((entry) => entry.key));
  const fresh = incoming.filter((entry) => !seen.has(entry.key) && seen.add(entry.key));
  if (fresh.length === 0) return [...current];
  return [...fresh, ...current].sort(byNewest).slice(0, FEED_LIMIT);
}

const updateConcert = (concerts: LiveConcertView[], eventId: string, change: (c: LiveConcertView) => LiveConcertView): LiveConcertView[] =>
  concerts.map((concert) => (concert.eventId === eventId ? change(concert) : concert));

/** What a show's activity says about its concert; a show going live that the page does not know yet is added. */
function applyShowActivity(concerts: LiveConcertView[], activity: Activity): LiveConcertView[] {
  const eventId = activity.eventId;
  if (!eventId) return concerts;
  const known = concerts.some((concert) => concert.eventId === eventId);
  const connected = (connectedNow: boolean) => (concert: LiveConcertView): LiveConcertView => ({
    ...concert,
    status: concert.status ? { ...concert.status, publisherConnected: connectedNow } : null,
  });
  switch (activity.kind) {
    case 'show_live':
      if (!known) {
        return [...concerts, { eventId, title: activity.eventTitle ?? '', artistName: null, projectId: null, startsAt: null, status: null, series: [], ended: false }];
      }
      return updateConcert(concerts, eventId, (concert) => ({ ...connected(true)(concert), ended: false }));
    case 'show_dropped':
      return updateConcert(concerts, eventId, connected(false));
    case 'show_ended':
      return updateConcert(concerts, eventId, (concert) => ({ ...connected(false)(concert), ended: true }));
    default:
      return concerts;
  }
}

export function livePageReducer(state: LivePageState, action: LivePageAction): LivePageState {
  switch (action.type) {
    case 'snapshot': {
      const { snapshot } = action;
      const listed = new Set(snapshot.concerts.map((concert) => concert.eventId));
      const concerts = snapshot.concerts.map((concert): LiveConcertView => {
        const current = state.concerts.find((c) => c.eventId === concert.eventId);
        return { ...concert, series: mergeSeries(concert.series, current?.series ?? []), ended: concert.status?.ended ?? false };
      });
      // A show that ended while the page was open stays, marked so; others no longer live go.
      const ended = state.concerts.filter((concert) => concert.ended && !listed.has(concert.eventId));
      return { concerts: [...concerts, ...ended], feed: mergeFeed(state.feed, snapshot.activity) };
    }
    case 'status': {
      if (!state.concerts.some((concert) => concert.eventId === action.eventId)) return state;
      const concerts = updateConcert(state.concerts, action.eventId, (concert) => ({
        ...concert,
        status: action.status,
        ended: action.status.ended,
        series: addPoint(concert.series, { at: action.at, listeners: action.status.listeners }),
      }));
      return { ...state, concerts };
    }
    case 'activity': {
      const feed = mergeFeed(state.feed, [feedEntry(action.activity)]);
      if (feed.length === state.feed.length && feed.every((e, i) => e === state.feed[i])) return state;
      return { concerts: applyShowActivity(state.concerts, action.activity), feed };
    }
  }
}

/** A show went live: GET /live is asked again for its artist, figures and series. */
export const needsSnapshot = (activity: Activity): boolean => activity.kind === 'show_live';
