import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AccountListQuery } from './api';
import { fetchAvatar, getAccountStats, listAccounts } from './api';
import { toUser } from './model';

export const accountKeys = {
  all: ['accounts'] as const,
  list: (query: AccountListQuery) => ['accounts', 'list', query] as const,
  stats: ['accounts', 'stats'] as const,
  avatar: (url: string) => ['accounts', 'avatar', url] as const,
};

export const accountListQueryOptions = (query: AccountListQuery) =>
  queryOptions({
    queryKey: accountKeys.list(query),
    queryFn: async () => {
      const page = await listAccounts(query);
      return { ...page, users: page.items.map(toUser) };
    },
    placeholderData: keepPreviousData,
  });

export const accountStatsQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.stats, queryFn: getAccountStats, staleTime: 60_000 });

/** Avatars need the bearer header, so they are fetched as blobs and shown from object URLs. */
export const avatarQueryOptions = (url: string) =>
  queryOptions({
    queryKey: accountKeys.avatar(url),
    queryFn: async () => URL.createObjectURL(await fetchAvatar(url)),
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: false,
  });
