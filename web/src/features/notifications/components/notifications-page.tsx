import { Button, Card, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLiveConnection } from '../../live/socket-provider';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import type { NotificationFilter } from '../api';
import { NOTIFICATION_FILTERS } from '../api';
import { listParamsQuery, pageCount, readListParams } from '../model';
import type { NotificationListParams } from '../model';
import { useNotificationMutations } from '../mutations';
import { NOTIFICATIONS_PAGE_SIZE, notificationsQueryOptions } from '../queries';
import { NotificationLine } from './notification-line';
import { Pager } from '../../../components/pager';

/** Every notification, paged, filtered by all / unread / read, with mark as read. */
export function NotificationsPage(): ReactNode {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const place = readListParams(search);
  const go = (next: NotificationListParams): void => {
    setSearch(listParamsQuery(next));
  };
  const live = useLiveConnection() === 'live';
  const list = useQuery(notificationsQueryOptions(place.page, NOTIFICATIONS_PAGE_SIZE, place.filter, live));
  const { markOne, markAll } = useNotificationMutations();
  const pages = list.data ? pageCount(list.data.total, list.data.pageSize) : 1;
  const unread = list.data?.unread ?? 0;
  // Marking read can empty the last page of "Unread": step back to the last page there is.
  const beyondEnd = list.data !== undefined && !list.isPlaceholderData && place.page > pages;
  useEffect(() => {
    if (beyondEnd) setSearch(listParamsQuery({ ...place, page: pages }), { replace: true });
  }, [beyondEnd, pages, place, setSearch]);
  return (
    <>
      <PageHeader
        title={t('notifications.title')}
        description={t('notifications.unreadCount', { count: unread })}
        actions={
          <Button
            leftSection={<IconChecks size={16} />}
            variant="light"
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => {
              markAll.mutate();
            }}
            data-testid="notifications-mark-all"
          >
            {t('notifications.markAllRead')}
          </Button>
        }
      />
      <Stack>
        <SegmentedControl
          value={place.filter}
          onChange={(value) => {
            go({ page: 1, filter: value as NotificationFilter });
          }}
          data={NOTIFICATION_FILTERS.map((filter) => ({ value: filter, label: t(`notifications.filter.${filter}`) }))}
          style={{ alignSelf: 'flex-start' }}
          data-testid="notifications-filter"
        />
        {list.isPending ? (
          <Skeleton h={240} />
        ) : list.isError ? (
          <Text c="red">{t('notifications.loadFailed')}</Text>
        ) : list.data.items.length === 0 ? (
          <EmptyState title={t(`notifications.emptyFilter.${place.filter}`)} />
        ) : (
          <Card withBorder p="xs">
            <Stack gap={2} data-testid="notifications-list" data-total={list.data.total}>
              {list.data.items.map((item) => (
                <NotificationLine
                  key={item.id}
                  item={item}
                  full
                  onRead={(id) => {
                    markOne.mutate(id);
                  }}
                />
              ))}
            </Stack>
          </Card>
        )}
        <Pager
          pages={pages}
          page={place.page}
          onChange={(page) => {
            go({ ...place, page });
          }}
          testId="notifications-pagination"
        />
      </Stack>
    </>
  );
}
