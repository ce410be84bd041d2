import { queryOptions } from '@tanstack/react-query';
import { getOutbox, outboxInUse } from './api';

/** Messages shown on the outbox page. */
export const OUTBOX_LIMIT = 50;

export const outboxKeys = {
  all: ['outbox'] as const,
  list: (limit: number) => ['outbox', 'list', limit] as const,
  inUse: ['outbox', 'in-use'] as const,
};

export const outboxQueryOptions = (limit = OUTBOX_LIMIT) =>
  queryOptions({ queryKey: outboxKeys.list(limit), queryFn: () => getOutbox(limit), refetchInterval: 10_000 });

/** The menu's question: is the dev outbox in use? (Configuration: asked once a session.) */
export const outboxInUseQueryOptions = () =>
  queryOptions({ queryKey: outboxKeys.inUse, queryFn: outboxInUse, staleTime: Infinity, retry: false });
