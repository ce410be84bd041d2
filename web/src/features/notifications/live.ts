/**
 * A notification pushed by the live socket, put into the cached lists at once: the bell's
 * badge counts it and the first pages show it without asking the server.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AppNotification, NotificationFilter, NotificationPage } from './api';
import { notificationKeys } from './queries';

type ListKey = ReturnType<typeof notificationKeys.list>;

/** One cached page with `item` added: counted as unread, and shown when it is a first page
 * of a filter that lists it. The page is returned as it was when it already has the item. */
export function withNotification(page: NotificationPage, item: AppNotification, filter: NotificationFilter, pageNumber: number): NotificationPage {
  if (page.items.some((existing) => existing.id === item.id)) return page;
  const listed = filter === 'all' || (filter === 'unread') === !item.read;
  return {
    ...page,
    unread: page.unread + (item.read ? 0 : 1),
    total: page.total + (listed ? 1 : 0),
    items: listed && pageNumber === 1 ? [item, ...page.items].slice(0, page.pageSize) : page.items,
  };
}

/** Adds `item` to every cached list, then marks them all stale: the later pages shifted, and
 * are fetched again when next shown (nothing is fetched now). */
export function addLiveNotification(client: QueryClient, item: AppNotification): void {
  for (const [key, page] of client.getQueriesData<NotificationPage>({ queryKey: [...notificationKeys.all, 'list'] })) {
    if (!page) continue;
    const [, , pageNumber, , filter] = key as ListKey;
    client.setQueryData<NotificationPage>(key, withNotification(page, item, filter, pageNumber));
  }
  void client.invalidateQueries({ queryKey: notificationKeys.all, refetchType: 'none' });
}

/** Pages a notification about a concert links to (a concert's stage, a fan's concerts, the
 * staff's Live page, the receipt of a purchase or a refund…): the concerts shown change state
 * (the fan's card turns live, a ticket appears or goes). */
const CONCERT_PAGES = ['/stage', '/concerts', '/receipts', '/my-events', '/events', '/manage-events', '/live'];

export function isConcertLink(link: string | null | undefined): boolean {
  return !!link && CONCERT_PAGES.some((page) => link === page || link.startsWith(`${page}/`) || link.startsWith(`${page}?`));
}
