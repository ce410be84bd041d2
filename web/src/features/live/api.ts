import type { Payload } from '../../lib/api-types';
import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { LiveSnapshot } from './live-page-model';
import { feedKey } from './live-page-model';

/** GET /live: the concerts live now and the staff channel's recent activity with its position. */
export type LiveNow = Payload<'live.live_now'>;

/** The page's snapshot: the series in ms, each activity keyed by its place on the staff channel. */
export function toSnapshot(live: LiveNow): LiveSnapshot {
  return {
    concerts: live.concerts.map((concert) => ({
      eventId: concert.eventId,
      title: concert.title,
      artistName: concert.artistName,
      startsAt: concert.startsAt,
      status: concert.status,
      series: concert.listenersOverTime.map((sample) => ({ at: Date.parse(sample.at), listeners: sample.listeners })),
    })),
    activity: live.recentActivity.map((item) => ({ key: feedKey(live.position.epoch, item.offset), activity: item.activity })),
  };
}

export const getLiveNow = async (): Promise<LiveSnapshot> => toSnapshot(await request<LiveNow>(`${API_PREFIX}/live`));
