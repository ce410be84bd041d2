import { Badge, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconFileZip, IconMessage, IconMessages } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import type { AppNotification } from '../api';

const TYPE_ICON = { message: IconMessage, upload: IconFileZip, topic: IconMessages } as const;

/** One notification; clicking it marks it as read and opens its page, when it has one
 * (`onOpened` then, e.g. to close the menu). */
export function NotificationLine({
  item,
  onRead,
  onOpened,
  full = false,
}: {
  item: AppNotification;
  onRead: (id: string) => void;
  onOpened?: () => void;
  full?: boolean;
}): ReactNode {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const Icon = TYPE_ICON[item.type];
  const when = formatDateTime(item.createdAt, localeOf(i18n.language), { dateStyle: 'medium', timeStyle: 'short' });
  // A topic (a sale, a refund, a show going live) says what happened in its own title and
  // body: no kind label under it.
  const subtitle =
    item.type === 'message' && item.sender
      ? t('notifications.from', { sender: item.sender })
      : item.type === 'upload' && item.uploadType
        ? t('notifications.uploadType', { type: item.uploadType })
        : item.type === 'topic'
          ? null
          : t(`notifications.type.${item.type}`);
  return (
    <UnstyledButton
      onClick={() => {
        if (!item.read) onRead(item.id);
        if (item.link) {
          void navigate(item.link);
          onOpened?.();
        }
      }}
      p="xs"
      style={{ borderRadius: 8, opacity: item.read ? 0.65 : 1 }}
      // Named by what it is about, so that a screen reader says which one it marks read.
      aria-label={item.read ? item.title : t('notifications.markRead', { title: item.title })}
      data-read={item.read ? 'true' : 'false'}
      data-testid="notification"
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon variant={item.read ? 'default' : 'light'} radius="xl">
          <Icon size={16} />
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          {/* The title whole, on as many lines as it takes (a concert's long title on a phone). */}
          <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
            <Text size="sm" fw={item.read ? 400 : 700} style={{ minWidth: 0, overflowWrap: 'anywhere' }} data-testid="notification-title">
              {item.title}
            </Text>
            {item.read ? null : (
              <Badge size="xs" variant="filled" style={{ flexShrink: 0 }} mt={2}>
                {t('notifications.new')}
              </Badge>
            )}
          </Group>
          {subtitle === null ? null : (
            <Text size="xs" c="dimmed" data-testid="notification-subtitle">
              {subtitle}
            </Text>
          )}
          {item.body ? (
            <Text size="xs" lineClamp={full ? undefined : 2} data-testid="notification-body">
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
