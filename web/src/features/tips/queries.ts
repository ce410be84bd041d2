import { queryOptions } from '@tanstack/react-query';
import { getTipOptions, getTips } from './api';

export const tipKeys = {
  all: ['tips'] as const,
  options: (eventId: string) => ['tips', 'options', eventId] as const,
  list: (eventId: string) => ['tips', 'list', eventId] as const,
};

export const tipOptionsQueryOptions = (eventId: string) =>
  queryOptions({ queryKey: tipKeys.options(eventId), queryFn: () => getTipOptions(eventId), staleTime: 10 * 60_000 });

/** The panel's list: pushed by the socket while it follows the concert, else polled. */
export const tipsQueryOptions = (eventId: string, pushed: boolean) =>
  queryOptions({ queryKey: tipKeys.list(eventId), queryFn: () => getTips(eventId), refetchInterval: pushed ? false : 15_000 });
