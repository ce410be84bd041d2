import type { Activity, ConcertFigures, LivePageState, LiveSnapshot } from './live-page-model';
import { FEED_LIMIT, INITIAL_LIVE_PAGE, SAMPLE_MS, SECONDS_UNDER_MS, WINDOW_MS, addPoint, chartTimeStyle, feedEntry, livePageReducer, mergeFeed, mergeSeries } from './live-page-model';

const T0 = Date.parse('2026-11-24T10:00:00Z');

const figures = (listeners: number, extra: Partial<ConcertFigures> = {}): ConcertFigures => ({
  publisherConnected: true,
  bitrateKbps: 128,
  recordedSeconds: 60,
  connectedSeconds: 60,
  segments: 10,
  ended: false,
  listeners,
  ...extra,
});

/** An activity whose id is its kind and time, unless `extra` names one. */
const activity = (kind: Activity['kind'], at: number, extra: Partial<Activity> = {}): Activity => ({ id: `${kind}@${String(at)}`, kind, at: new Date(at).toISOString(), ...extra });

const concert = (eventId: string, series: { at: number; listeners: number }[] = [], status: ConcertFigures | null = figures(0)) => ({
  eventId,
  title: `Concert ${eventId}`,
  artistName: 'The Band',
  projectId: 'band',
  startsAt: '2026-11-24T09:55:00Z',
  status,
  series,
});

const snapshot = (concerts: LiveSnapshot['concerts'], items: Activity[] = []): LiveSnapshot => ({ concerts, activity: items.map(feedEntry) });

describe('listeners over time', () => {
  it('writes its times with seconds while the series is young, so its labels are not the same minute again', () => {
    const points = (span: number) => [{ at: T0, listeners: 1 }, { at: T0 + span / 2, listeners: 2 }, { at: T0 + span, listeners: 2 }];
    expect(chartTimeStyle([])).toBe('medium');
    expect(chartTimeStyle(points(4 * 60_000))).toBe('medium');
    expect(chartTimeStyle(points(SECONDS_UNDER_MS - 1))).toBe('medium');
    expect(chartTimeStyle(points(SECONDS_UNDER_MS))).toBe('short');
    expect(chartTimeStyle(points(WINDOW_MS))).toBe('short');
  });

  it('keeps a point per sample while the newest point follows every figure', () => {
    let series = addPoint([], { at: T0, listeners: 1 });
    series = addPoint(series, { at: T0 + 1000, listeners: 2 });
    // The second point moves with the figures until it is a sample after the first.
    series = addPoint(series, { at: T0 + 2000, listeners: 3 });
    expect(series).toEqual([{ at: T0, listeners: 1 }, { at: T0 + 2000, listeners: 3 }]);
    series = addPoint(series, { at: T0 + SAMPLE_MS, listeners: 4 });
    series = addPoint(series, { at: T0 + SAMPLE_MS + 1000, listeners: 5 });
    expect(series).toEqual([
      { at: T0, listeners: 1 },
      { at: T0 + SAMPLE_MS, listeners: 4 },
      { at: T0 + SAMPLE_MS + 1000, listeners: 5 },
    ]);
  });

  it('ignores a figure older than the last point and forgets what is out of the window', () => {
    const series = [{ at: T0, listeners: 1 }, { at: T0 + SAMPLE_MS, listeners: 2 }];
    expect(addPoint(series, { at: T0 + 5, listeners: 9 })).toEqual(series);
    expect(addPoint(series, { at: T0 + WINDOW_MS + SAMPLE_MS, listeners: 3 })).toEqual([
      { at: T0 + SAMPLE_MS, listeners: 2 },
      { at: T0 + WINDOW_MS + SAMPLE_MS, listeners: 3 },
    ]);
  });

  it("takes the server's samples and keeps only the page's newer points", () => {
    const server = [{ at: T0, listeners: 1 }, { at: T0 + SAMPLE_MS, listeners: 2 }];
    const local = [{ at: T0 + 5000, listeners: 7 }, { at: T0 + SAMPLE_MS + 3000, listeners: 3 }];
    expect(mergeSeries(server, local)).toEqual([...server, { at: T0 + SAMPLE_MS + 3000, listeners: 3 }]);
    expect(mergeSeries([], local)).toEqual(local);
  });
});

describe('the activity feed', () => {
  const entry = (n: number) => feedEntry(activity('sale', T0 + n * 1000, { id: `s${String(n)}` }));

  it('is newest first, each activity once (by id), capped', () => {
    const feed = mergeFeed([entry(2), entry(1)], [entry(3), entry(2)]);
    expect(feed.map((e) => e.key)).toEqual(['s3', 's2', 's1']);
    const many = Array.from({ length: FEED_LIMIT + 10 }, (_, i) => entry(i + 1));
    const capped = mergeFeed([], many);
    expect(capped).toHaveLength(FEED_LIMIT);
    expect(capped[0]?.key).toBe(`s${String(FEED_LIMIT + 10)}`);
    expect(capped.at(-1)?.key).toBe('s11');
  });

  it('puts the later arrival first when activities share a millisecond', () => {
    const same = (id: string) => feedEntry(activity('signup', T0, { id }));
    expect(mergeFeed([same('b')], [same('c')]).map((e) => e.key)).toEqual(['c', 'b']);
  });
});

describe('the Live page', () => {
  const withConcert = (): LivePageState =>
    livePageReducer(INITIAL_LIVE_PAGE, { type: 'snapshot', snapshot: snapshot([concert('a', [{ at: T0, listeners: 0 }])], [activity('signup', T0)]) });

  it('merges live_status into the concert and its series', () => {
    const state = livePageReducer(withConcert(), { type: 'status', eventId: 'a', status: figures(3), at: T0 + SAMPLE_MS });
    expect(state.concerts[0]?.status?.listeners).toBe(3);
    expect(state.concerts[0]?.series).toEqual([{ at: T0, listeners: 0 }, { at: T0 + SAMPLE_MS, listeners: 3 }]);
    const ended = livePageReducer(state, { type: 'status', eventId: 'a', status: figures(0, { ended: true, publisherConnected: false }), at: T0 + 2 * SAMPLE_MS });
    expect(ended.concerts[0]?.ended).toBe(true);
    // A concert the page does not show is not invented from its figures.
    expect(livePageReducer(state, { type: 'status', eventId: 'z', status: figures(5), at: T0 })).toBe(state);
  });

  it('adds a show that goes live, marks one that drops or ends, and lists each activity once', () => {
    let state = livePageReducer(withConcert(), { type: 'activity', activity: activity('show_live', T0 + 1000, { eventId: 'b', eventTitle: 'Night' }) });
    expect(state.concerts.map((c) => [c.eventId, c.title, c.status])).toEqual([
      ['a', 'Concert a', figures(0)],
      ['b', 'Night', null],
    ]);
    state = livePageReducer(state, { type: 'activity', activity: activity('show_dropped', T0 + 2000, { eventId: 'a' }) });
    expect(state.concerts[0]?.status?.publisherConnected).toBe(false);
    state = livePageReducer(state, { type: 'activity', activity: activity('show_ended', T0 + 3000, { eventId: 'a' }) });
    expect(state.concerts[0]?.ended).toBe(true);
    expect(state.feed.map((e) => e.activity.kind)).toEqual(['show_ended', 'show_dropped', 'show_live', 'signup']);
    // The same message again (a replay) changes nothing.
    expect(livePageReducer(state, { type: 'activity', activity: activity('show_ended', T0 + 3000, { eventId: 'a' }) })).toBe(state);
  });

  it('a new snapshot fills in announced shows, keeps ended ones and drops those no longer live', () => {
    let state = livePageReducer(withConcert(), { type: 'activity', activity: activity('show_live', T0, { eventId: 'b', eventTitle: 'Night' }) });
    state = livePageReducer(state, { type: 'status', eventId: 'a', status: figures(2), at: T0 + 20_000 });
    state = livePageReducer(state, {
      type: 'snapshot',
      snapshot: snapshot([concert('a', [{ at: T0, listeners: 0 }, { at: T0 + SAMPLE_MS, listeners: 1 }], figures(1)), concert('b', [], figures(0))], [activity('show_live', T0, { eventId: 'b' })]),
    });
    expect(state.concerts.map((c) => [c.eventId, c.artistName, c.projectId, c.status?.listeners])).toEqual([
      ['a', 'The Band', 'band', 1],
      ['b', 'The Band', 'band', 0],
    ]);
    // The point the socket brought after the server's last sample is kept.
    expect(state.concerts[0]?.series.at(-1)).toEqual({ at: T0 + 20_000, listeners: 2 });
    expect(state.feed.map((e) => e.key)).toEqual([`show_live@${String(T0)}`, `signup@${String(T0)}`]);

    state = livePageReducer(state, { type: 'activity', activity: activity('show_ended', T0 + 30_000, { eventId: 'b' }) });
    state = livePageReducer(state, { type: 'snapshot', snapshot: snapshot([]) });
    expect(state.concerts.map((c) => [c.eventId, c.ended])).toEqual([['b', true]]);
  });
});
