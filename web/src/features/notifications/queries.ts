import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { NotificationFilter } from './api';
import { listNotifications } from './api';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (page: number, pageSize: number, filter: NotificationFilter) => ['notifications', 'list', page, pageSize, filter] as const,
};

/** Notifications per page on the notifications page (the menu shows the ten newest). */
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** How often the lists are refetched while the live socket does not bring new ones. */
export const NOTIFICATIONS_POLL_MS = 60_000;

/** Loaded over HTTP; while the socket is `live` it keeps them up to date (live.ts) instead
 * of polling. */
export const notificationsQueryOptions = (page = 1, pageSize = 10, filter: NotificationFilter = 'all', live = false) =>
  queryOptions({
    queryKey: notificationKeys.list(page, pageSize, filter),
    queryFn: () => listNotifications(page, pageSize, filter),
    refetchInterval: live ? false : NOTIFICATIONS_POLL_MS,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
