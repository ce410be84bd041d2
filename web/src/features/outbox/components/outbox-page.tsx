import { Alert, Badge, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconEyeOff, IconMail, IconMessage } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import type { OutboxMessage } from '../api';
import { OUTBOX_LIMIT, outboxQueryOptions } from '../queries';
import { OutboxMessageBody } from './outbox-message-body';

function OutboxCard({ message }: { message: OutboxMessage }): ReactNode {
  const { t, i18n } = useTranslation();
  const when = formatDateTime(message.created_at, localeOf(i18n.language), { dateStyle: 'medium', timeStyle: 'medium' });
  const Icon = message.channel === 'email' ? IconMail : IconMessage;
  return (
    <Card withBorder data-testid="outbox-message" data-to={message.to} data-channel={message.channel}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge variant="light" leftSection={<Icon size={12} />}>
              {t(`outbox.channel.${message.channel}`)}
            </Badge>
            <Text size="sm" fw={600} dir="ltr" truncate>
              {message.to}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {when}
          </Text>
        </Group>
        {message.subject ? (
          <Text fw={700} dir="auto">
            {message.subject}
          </Text>
        ) : null}
        <OutboxMessageBody body={message.body} />
        {message.redacted ? (
          <Text size="xs" c="dimmed" data-testid="outbox-redacted">
            <IconEyeOff size={12} style={{ verticalAlign: 'middle' }} /> {t('outbox.redacted')}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The dev mail/SMS outbox, newest first (admin, sa; only while no real provider is set). */
export function OutboxPage(): ReactNode {
  const { t } = useTranslation();
  const outbox = useQuery(outboxQueryOptions());
  return (
    <>
      <PageHeader title={t('nav.outbox')} description={t('outbox.intro', { count: OUTBOX_LIMIT })} />
      {outbox.isPending ? (
        <Skeleton h={200} />
      ) : outbox.isError ? (
        <Text c="red">{t('outbox.loadFailed')}</Text>
      ) : !outbox.data.enabled ? (
        <Alert color="gray" title={t('outbox.offTitle')} data-testid="outbox-off">
          {t('outbox.offText')}
        </Alert>
      ) : outbox.data.items.length === 0 ? (
        <EmptyState title={t('outbox.emptyTitle')} description={t('outbox.emptyText')} />
      ) : (
        <Stack data-testid="outbox-list">
          {outbox.data.items.map((message, index) => (
            <OutboxCard key={`${message.created_at}-${String(index)}`} message={message} />
          ))}
        </Stack>
      )}
    </>
  );
}
