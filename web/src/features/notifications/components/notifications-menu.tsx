import { ActionIcon, Badge, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBell, IconFileZip, IconMessage, IconMessages } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import type { AppNotification } from '../api';
import { markAllNotificationsRead, markNotificationRead } from '../api';
import { notificationKeys, notificationsQueryOptions } from '../queries';

const TYPE_ICON = { message: IconMessage, upload: IconFileZip, topic: IconMessages } as const;

function NotificationLine({ item, onRead }: { item: AppNotification; onRead: (id: string) => void }): ReactNode {
  const { t, i18n } = useTranslation();
  const Icon = TYPE_ICON[item.type];
  const when = new Date(item.createdAt).toLocaleString(localeOf(i18n.language), { dateStyle: 'medium', timeStyle: 'short' });
  const subtitle =
    item.type === 'message' && item.sender
      ? t('notifications.from', { sender: item.sender })
      : item.type === 'upload' && item.uploadType
        ? t('notifications.uploadType', { type: item.uploadType })
        : t(`notifications.type.${item.type}`);
  return (
    <UnstyledButton
      onClick={() => {
        if (!item.read) onRead(item.id);
      }}
      p="xs"
      style={{ borderRadius: 8, opacity: item.read ? 0.65 : 1 }}
      aria-label={item.read ? item.title : t('notifications.markRead')}
      data-read={item.read ? 'true' : 'false'}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon variant={item.read ? 'default' : 'light'} radius="xl">
          <Icon size={16} />
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Text size="sm" fw={item.read ? 400 : 700} truncate>
              {item.title}
            </Text>
            {item.read ? null : (
              <Badge size="xs" variant="filled">
                {t('notifications.new')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {subtitle}
          </Text>
          {item.body ? (
            <Text size="xs" lineClamp={2}>
              {item.body}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {when}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

/** The navbar's notifications menu: read/unread and mark as read. */
export function NotificationsMenu(): ReactNode {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data, isError } = useQuery(notificationsQueryOptions());
  const invalidate = (): Promise<void> => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  const markOne = useMutation({ mutationFn: markNotificationRead, onSettled: invalidate });
  const markAll = useMutation({ mutationFn: markAllNotificationsRead, onSettled: invalidate });
  const unread = data?.unread ?? 0;
  const items = data?.items ?? [];
  return (
    <Popover position="bottom-end" width={340} shadow="md" withinPortal>
      <Popover.Target>
        <Indicator label={unread} size={16} disabled={unread === 0} offset={4} data-testid="notifications-badge">
          <ActionIcon variant="subtle" size="lg" aria-label={t('notifications.open')}>
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
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
