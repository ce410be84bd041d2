import { queryOptions } from '@tanstack/react-query';
import { getLiveNow } from './api';

/** Without the socket the Live page asks GET /live this often (and says it is not live). */
export const LIVE_POLL_MS = 10_000;

export const liveKeys = {
  overview: ['live', 'overview'] as const,
};

/** `poll`: refetch every LIVE_POLL_MS (the socket is down); otherwise the socket keeps the page current.
 * Never fresh from the cache: what happened while the page was closed (the dashboard asked a
 * minute ago) is fetched when it opens, the cached answer shown meanwhile. */
export const liveOverviewQueryOptions = (poll: boolean) =>
  queryOptions({ queryKey: liveKeys.overview, queryFn: getLiveNow, refetchInterval: poll ? LIVE_POLL_MS : false, staleTime: 0 });
