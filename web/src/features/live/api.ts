import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { Activity, ConcertFigures, LiveSnapshot } from './live-page-model';
import { feedKey } from './live-page-model';

// GET /live as the server describes it (its schema is not in web/openapi.json yet).
interface ListenerSample {
  at: string;
  listeners: number;
}

interface LiveConcert {
  eventId: string;
  title: string;
  artistName: string | null;
  startsAt: string | null;
  status: ConcertFigures;
  listenersSeries: ListenerSample[];
}

interface LiveOverview {
  concerts: LiveConcert[];
  /** The staff channel's retained activity, oldest first, with its position. */
  activity: { epoch: string; offset: number; items: { offset: number; activity: Activity }[] };
}

/** The page's snapshot: concerts with their series in ms, the activity keyed by its place on the staff channel. */
export function toSnapshot(overview: LiveOverview): LiveSnapshot {
  return {
    concerts: overview.concerts.map((concert) => ({
      eventId: concert.eventId,
      title: concert.title,
      artistName: concert.artistName,
      startsAt: concert.startsAt,
      status: concert.status,
      series: concert.listenersSeries.map((sample) => ({ at: Date.parse(sample.at), listeners: sample.listeners })),
    })),
    activity: overview.activity.items.map((item) => ({ key: feedKey(overview.activity.epoch, item.offset), activity: item.activity })),
  };
}

export const getLiveOverview = async (): Promise<LiveSnapshot> => toSnapshot(await request<LiveOverview>(`${API_PREFIX}/live`));
