import { queryOptions } from '@tanstack/react-query';
import { getListeningStatus } from './api';
import { LISTENERS_POLL_MS } from './player-store';

export const listeningKeys = {
  all: ['listening'] as const,
  status: (eventId: string) => ['listening', 'status', eventId] as const,
};

/** How the show stands for a holder (GET /stream/{id}/session): asked again until it says the
 * show ended (then its set, `losslessSet` included, no longer changes) or that nothing aired. */
export const listeningStatusQueryOptions = (eventId: string) =>
  queryOptions({
    queryKey: listeningKeys.status(eventId),
    queryFn: () => getListeningStatus(eventId),
    refetchInterval: (query) => (query.state.data && query.state.data.aired && !query.state.data.ended ? LISTENERS_POLL_MS : false),
  });
