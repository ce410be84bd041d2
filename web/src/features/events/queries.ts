import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { EventListQuery } from './api';
import { getEvent, getEventSales, getLiveStatus, getStreamKey, getOrder, listEvents, listManagedEvents, listMyPurchases, listOrders } from './api';
import type { EncoreEvent } from './model';
import { mergeMyEvents, purchasedEventIds } from './model';

export const eventKeys = {
  all: ['events'] as const,
  list: (query: EventListQuery) => ['events', 'list', query] as const,
  detail: (id: string) => ['events', 'detail', id] as const,
  manage: ['events', 'manage'] as const,
  sales: (id: string) => ['events', 'sales', id] as const,
  mine: ['events', 'mine'] as const,
  streamKey: (id: string) => ['events', 'stream-key', id] as const,
  live: (id: string) => ['events', 'live', id] as const,
};

/** How often the manage-events live panel asks for the show's status. */
export const LIVE_STATUS_POLL_MS = 2000;

export const orderKeys = {
  all: ['orders'] as const,
  detail: (id: string) => ['orders', 'detail', id] as const,
  list: (page: number, pageSize: number) => ['orders', 'list', page, pageSize] as const,
  mine: ['orders', 'mine'] as const,
};

export const eventListQueryOptions = (query: EventListQuery) =>
  queryOptions({ queryKey: eventKeys.list(query), queryFn: () => listEvents(query), placeholderData: keepPreviousData });

export const eventQueryOptions = (id: string) => queryOptions({ queryKey: eventKeys.detail(id), queryFn: () => getEvent(id) });

export const managedEventsQueryOptions = () => queryOptions({ queryKey: eventKeys.manage, queryFn: listManagedEvents });

export const eventSalesQueryOptions = (id: string) =>
  queryOptions({ queryKey: eventKeys.sales(id), queryFn: () => getEventSales(id) });

export const streamKeyQueryOptions = (id: string) =>
  queryOptions({ queryKey: eventKeys.streamKey(id), queryFn: () => getStreamKey(id), staleTime: Infinity });

export const liveStatusQueryOptions = (id: string) =>
  queryOptions({ queryKey: eventKeys.live(id), queryFn: () => getLiveStatus(id), refetchInterval: LIVE_STATUS_POLL_MS });

export const orderQueryOptions = (id: string) =>
  queryOptions({ queryKey: orderKeys.detail(id), queryFn: () => getOrder(id) });

export const ordersQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: orderKeys.list(page, pageSize), queryFn: () => listOrders(page, pageSize), placeholderData: keepPreviousData });

/** My events: concerts from my fulfilled orders, plus listed concerts I own through a pass. */
export const myEventsQueryOptions = () =>
  queryOptions({
    queryKey: eventKeys.mine,
    queryFn: async (): Promise<EncoreEvent[]> => {
      const [orders, listed] = await Promise.all([listMyPurchases(), listEvents({ page: 1, pageSize: 100 })]);
      const ids = purchasedEventIds(orders.items);
      const fromOrders = await Promise.all(
        ids.map((id) => getEvent(id).catch(() => null)),
      );
      return mergeMyEvents(
        fromOrders.filter((event): event is EncoreEvent => event !== null),
        listed.items,
        Date.now(),
      );
    },
  });
