import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { NotificationFilter } from './api';
import { listNotifications } from './api';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (page: number, pageSize: number, filter: NotificationFilter) => ['notifications', 'list', page, pageSize, filter] as const,
};

/** Notifications per page on the notifications page (the menu shows the ten newest). */
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** Loaded over HTTP for now (a later step pushes them over the WebSocket). */
export const notificationsQueryOptions = (page = 1, pageSize = 10, filter: NotificationFilter = 'all') =>
  queryOptions({
    queryKey: notificationKeys.list(page, pageSize, filter),
    queryFn: () => listNotifications(page, pageSize, filter),
    refetchInterval: 60_000,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
