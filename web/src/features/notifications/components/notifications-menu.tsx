import { ActionIcon, Button, Divider, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../../i18n/numbers';
import { useLiveConnection } from '../../live/socket-provider';
import { useNotificationMutations } from '../mutations';
import { notificationsQueryOptions } from '../queries';
import { NotificationLine } from './notification-line';

/** The navbar's notifications menu: the ten newest, mark as read, and a link to all of them. */
export function NotificationsMenu(): ReactNode {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(false);
  const live = useLiveConnection() === 'live';
  const { data, isError } = useQuery(notificationsQueryOptions(1, 10, 'all', live));
  const { markOne, markAll } = useNotificationMutations();
  const unread = data?.unread ?? 0;
  const items = data?.items ?? [];
  return (
    <Popover position="bottom-end" width={340} shadow="md" withinPortal opened={opened} onChange={setOpened}>
      <Popover.Target>
        <Indicator label={formatNumber(unread, i18n.language)} size={16} disabled={unread === 0} offset={4} data-testid="notifications-badge">
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t('notifications.open')}
            onClick={() => {
              setOpened((o) => !o);
            }}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <Group justify="space-between" px="xs" pb="xs">
          <Text fw={700}>{t('notifications.title')}</Text>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => {
              markAll.mutate();
            }}
          >
            {t('notifications.markAllRead')}
          </Button>
        </Group>
        {isError ? (
          <Text size="sm" c="red" p="xs">
            {t('notifications.loadFailed')}
          </Text>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" p="xs" ta="center">
            {t('notifications.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={380}>
            <Stack gap={2}>
              {items.map((item) => (
                <NotificationLine
                  key={item.id}
                  item={item}
                  onRead={(id) => {
                    markOne.mutate(id);
                  }}
                  onOpened={() => {
                    setOpened(false);
                  }}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Divider my="xs" />
        <Button
          component={Link}
          to="/notifications"
          variant="subtle"
          fullWidth
          size="compact-sm"
          onClick={() => {
            setOpened(false);
          }}
          data-testid="notifications-see-all"
        >
          {t('notifications.seeAll')}
        </Button>
      </Popover.Dropdown>
    </Popover>
  );
}
