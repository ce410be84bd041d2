import type { ReactNode } from 'react';
import type { ConcertFigures } from '../live-page-model';
import { useLiveChannel, useLiveConnection } from '../socket-provider';
import type { ActivityMessage } from '../socket-protocol';
import { eventChannel } from '../socket-protocol';

/** Whether the socket carries the page (else it polls GET /live). */
export const useSocketLive = (): boolean => useLiveConnection() === 'live';

/** The staff channel's activities; `onBehind` when the socket could not replay what was missed. */
export function useStaffActivity(onActivity: (message: ActivityMessage) => void, onBehind: () => void): void {
  useLiveChannel('staff', (message) => {
    if (message.type === 'activity') onActivity(message);
    else if (message.type === 'subscribed' && !message.recovered) onBehind();
  });
}

/** Follows one concert's `live_status` while it is on the page. */
export function FollowConcert({ eventId, onStatus }: { eventId: string; onStatus: (eventId: string, status: ConcertFigures) => void }): ReactNode {
  useLiveChannel(eventChannel(eventId), (message) => {
    if (message.type === 'live_status') onStatus(eventId, message.status);
  });
  return null;
}
