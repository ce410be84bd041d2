import type { Payload } from '../../lib/api-types';
import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { LiveSnapshot } from './live-page-model';
import { feedEntry } from './live-page-model';

/** GET /live: the concerts live now, the latest staff activity and the staff channel's position. */
export type LiveNow = Payload<'live.live_now'>;

/** The page's snapshot: the series in ms, each activity keyed by its id. */
export function toSnapshot(live: LiveNow): LiveSnapshot {
  return {
    concerts: live.concerts.map((concert) => ({
      eventId: concert.eventId,
      title: concert.title,
      artistName: concert.artistName,
      projectId: concert.projectId,
      startsAt: concert.startsAt,
      status: concert.status,
      series: concert.listenersOverTime.map((sample) => ({ at: Date.parse(sample.at), listeners: sample.listeners })),
    })),
    activity: live.recentActivity.map(feedEntry),
  };
}

export const getLiveNow = async (): Promise<LiveSnapshot> => toSnapshot(await request<LiveNow>(`${API_PREFIX}/live`));
