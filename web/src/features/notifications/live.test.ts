import { QueryClient } from '@tanstack/react-query';
import type { AppNotification, NotificationPage } from './api';
import { addLiveNotification, isConcertLink, withNotification } from './live';
import { notificationKeys } from './queries';

const item = (id: string, read = false): AppNotification => ({
  id,
  type: 'topic',
  title: id,
  body: '',
  sender: null,
  uploadType: null,
  read,
  createdAt: '2030-01-01T00:00:00Z',
  link: null,
});
const page = (items: AppNotification[], extra: Partial<NotificationPage> = {}): NotificationPage => ({
  items,
  total: items.length,
  unread: items.filter((i) => !i.read).length,
  page: 1,
  pageSize: 2,
  ...extra,
});

describe('a pushed notification in the cached lists', () => {
  it('goes first on a first page, counted, the page kept to its size', () => {
    const next = withNotification(page([item('b'), item('a', true)]), item('c'), 'all', 1);
    expect(next.items.map((i) => i.id)).toEqual(['c', 'b']);
    expect(next.total).toBe(3);
    expect(next.unread).toBe(2);
  });

  it('only counts on later pages and on the read filter', () => {
    const later = withNotification(page([item('a')], { total: 5 }), item('c'), 'all', 2);
    expect(later.items.map((i) => i.id)).toEqual(['a']);
    expect(later.total).toBe(6);
    const read = withNotification(page([item('a', true)], { unread: 4 }), item('c'), 'read', 1);
    expect(read.items.map((i) => i.id)).toEqual(['a']);
    expect(read.total).toBe(1);
    expect(read.unread).toBe(5);
  });

  it('is not added twice (a replay after the list was fetched)', () => {
    const cached = page([item('c'), item('b')]);
    expect(withNotification(cached, item('c'), 'unread', 1)).toBe(cached);
  });

  it('updates every cached list, the badge included, and leaves them stale', () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.list(1, 10, 'all'), page([item('a')], { pageSize: 10 }));
    client.setQueryData(notificationKeys.list(2, 20, 'unread'), page([], { pageSize: 20, total: 20, unread: 20 }));
    addLiveNotification(client, item('n'));
    const menu = client.getQueryData<NotificationPage>(notificationKeys.list(1, 10, 'all'));
    expect(menu?.unread).toBe(2);
    expect(menu?.items[0]?.id).toBe('n');
    expect(client.getQueryData<NotificationPage>(notificationKeys.list(2, 20, 'unread'))?.unread).toBe(21);
    expect(client.getQueryState(notificationKeys.list(1, 10, 'all'))?.isInvalidated).toBe(true);
  });
});

describe('concert links', () => {
  it('are the pages that show concerts', () => {
    expect(isConcertLink('/my-events')).toBe(true);
    expect(isConcertLink('/stage/abc')).toBe(true);
    expect(isConcertLink('/receipts/o1')).toBe(true);
    expect(isConcertLink('/stages')).toBe(false);
    expect(isConcertLink('/manage-events?event=1')).toBe(true);
    expect(isConcertLink('/events/abc')).toBe(true);
    expect(isConcertLink('/live')).toBe(true);
    expect(isConcertLink('/lively')).toBe(false);
    expect(isConcertLink('/my-eventsX')).toBe(false);
    expect(isConcertLink('/payments/orders/1')).toBe(false);
    expect(isConcertLink(null)).toBe(false);
  });
});
