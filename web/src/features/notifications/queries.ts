import { queryOptions } from '@tanstack/react-query';
import { listNotifications } from './api';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (page: number, pageSize: number) => ['notifications', 'list', page, pageSize] as const,
};

/** Loaded over HTTP for now (a later step pushes them over the WebSocket). */
export const notificationsQueryOptions = (page = 1, pageSize = 10) =>
  queryOptions({
    queryKey: notificationKeys.list(page, pageSize),
    queryFn: () => listNotifications(page, pageSize),
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
