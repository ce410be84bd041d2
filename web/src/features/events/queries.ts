import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { EventListQuery } from './api';
import { MY_EVENTS_PAGE_SIZE } from './model';
import { getEvent, getEventSales, getLiveStatus, getStreamKey, listEvents, listManagedEvents, listMarkers, listMyEvents, listTiers } from './api';

export const eventKeys = {
  all: ['events'] as const,
  list: (query: EventListQuery) => ['events', 'list', query] as const,
  detail: (id: string) => ['events', 'detail', id] as const,
  manage: ['events', 'manage'] as const,
  sales: (id: string) => ['events', 'sales', id] as const,
  mine: (page: number, pageSize: number) => ['events', 'mine', page, pageSize] as const,
  streamKey: (id: string) => ['events', 'stream-key', id] as const,
  live: (id: string) => ['events', 'live', id] as const,
  markers: (id: string) => ['events', 'markers', id] as const,
  tiers: (id: string) => ['events', 'tiers', id] as const,
};

/** How often the manage-events live panel asks for the show's status while the live socket
 * does not bring it. */
export const LIVE_STATUS_POLL_MS = 2000;

export const eventListQueryOptions = (query: EventListQuery) =>
  queryOptions({ queryKey: eventKeys.list(query), queryFn: () => listEvents(query), placeholderData: keepPreviousData });

export const eventQueryOptions = (id: string) => queryOptions({ queryKey: eventKeys.detail(id), queryFn: () => getEvent(id) });

export const managedEventsQueryOptions = () => queryOptions({ queryKey: eventKeys.manage, queryFn: listManagedEvents });

export const eventSalesQueryOptions = (id: string) =>
  queryOptions({ queryKey: eventKeys.sales(id), queryFn: () => getEventSales(id) });

export const streamKeyQueryOptions = (id: string) =>
  queryOptions({ queryKey: eventKeys.streamKey(id), queryFn: () => getStreamKey(id), staleTime: Infinity });

/** `pushed`: the live socket follows the concert's channel, so no polling. */
export const liveStatusQueryOptions = (id: string, pushed = false) =>
  queryOptions({ queryKey: eventKeys.live(id), queryFn: () => getLiveStatus(id), refetchInterval: pushed ? false : LIVE_STATUS_POLL_MS });

export const markersQueryOptions = (id: string) => queryOptions({ queryKey: eventKeys.markers(id), queryFn: () => listMarkers(id) });

/** A concert's ticket tiers as its managers see them (hidden ones too). */
export const tiersQueryOptions = (id: string) => queryOptions({ queryKey: eventKeys.tiers(id), queryFn: () => listTiers(id) });

/** My events, a page at a time (GET /events/mine). */
export const myEventsQueryOptions = (page = 1, pageSize = MY_EVENTS_PAGE_SIZE) =>
  queryOptions({ queryKey: eventKeys.mine(page, pageSize), queryFn: () => listMyEvents(page, pageSize), placeholderData: keepPreviousData });

/** Refetches what shows concerts' states (lists, my concerts, one concert): a concert went
 * live, ended or was cancelled. */
export function refreshConcertStates(client: QueryClient): Promise<void> {
  const shown = new Set<unknown>(['list', 'mine', 'manage', 'detail']);
  return client.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] === eventKeys.all[0] && shown.has(queryKey[1]) });
}
