import { Skeleton, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Pager } from './pager';

/** A page of a paged list as the server sends it. */
interface ListPage {
  items: readonly unknown[];
  total: number;
  pageSize: number;
}

interface PagedQueryProps<P extends ListPage> {
  query: UseQueryResult<P>;
  page: number;
  onPage: (page: number) => void;
  /** Said in red when the page could not be loaded. */
  failed: string;
  /** Shown when the list has no item at all. */
  empty: ReactNode;
  /** The page's items. */
  children: (data: P) => ReactNode;
}

/** A paged list as its query stands: a skeleton while it loads, `failed` when it could not,
 * `empty` when there is nothing, else the page's items above the pager. */
export function PagedQuery<P extends ListPage>({ query, page, onPage, failed, empty, children }: PagedQueryProps<P>): ReactNode {
  if (query.isPending) return <Skeleton h={200} />;
  if (query.isError) return <Text c="red">{failed}</Text>;
  if (query.data.items.length === 0) return empty;
  const pages = Math.max(1, Math.ceil(query.data.total / query.data.pageSize));
  return (
    <Stack>
      {children(query.data)}
      <Pager pages={pages} page={page} onChange={onPage} />
    </Stack>
  );
}
