import { Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconClock, IconTrash, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors';
import { isolate } from '../model';
import type { RoomReportsView } from '../use-reports';
import type { RoomView } from '../use-room';
import { useRoomActions } from '../use-room';
import { MessageBody } from './room-message';

/**
 * The room's open reports in the artist's live panel (use-reports.ts: those made before it
 * opened, then live), newest first, each with Delete, a five-minute timeout and Dismiss. A
 * message deleted (by anyone) takes its reports along; a report dismissed by any moderator
 * leaves every moderator's list.
 */
export function RoomReports({ view, reports }: { view: RoomView; reports: RoomReportsView }): ReactNode {
  const { t } = useTranslation('room');
  const actions = useRoomActions(view);
  const showError = (error: unknown): void => {
    notifications.show({ color: 'red', message: errorText(error, t) });
  };
  const open = reports.reports;
  return (
    <Stack gap="xs" data-testid="room-reports" data-count={open.length} data-status={reports.status}>
      <Text fw={600}>{t('reports.title')}</Text>
      {reports.status === 'error' ? (
        <Text size="sm" c="red" data-testid="room-reports-failed">
          {errorText(reports.error, t)}
        </Text>
      ) : null}
      {reports.status === 'loading' ? (
        <Skeleton h={64} />
      ) : open.length === 0 ? (
        reports.status === 'ready' ? (
          <Text size="sm" c="dimmed" data-testid="room-reports-empty">
            {t('reports.empty')}
          </Text>
        ) : null
      ) : (
        open.map((report) => (
          <Card key={report.id} withBorder padding="xs" data-testid="room-report" data-id={report.id} data-message={report.message.id}>
            <Stack gap={4}>
              <MessageBody message={report.message} />
              <Text size="xs" c="dimmed">
                {t('reports.by', { name: isolate(report.reporterName) })}
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  leftSection={<IconTrash size={14} />}
                  onClick={() => {
                    // Deleted, the message takes its reports along (view.deleted).
                    actions.remove.mutate(report.message.id, { onError: showError });
                  }}
                  data-testid="room-report-delete"
                >
                  {t('reports.delete')}
                </Button>
                {report.message.badge === null ? (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconClock size={14} />}
                    onClick={() => {
                      actions.restrict.mutate(
                        { accountId: report.message.accountId, kind: 'timeout_5m' },
                        {
                          onSuccess: () => notifications.show({ color: 'green', message: t('moderation.done.timeout_5m', { author: isolate(report.message.author) }) }),
                          onError: showError,
                        },
                      );
                    }}
                    data-testid="room-report-timeout"
                  >
                    {t('reports.timeout')}
                  </Button>
                ) : null}
                <Button
                  size="xs"
                  variant="subtle"
                  color="gray"
                  leftSection={<IconX size={14} />}
                  loading={reports.dismiss.isPending && reports.dismiss.variables === report.id}
                  onClick={() => {
                    reports.dismiss.mutate(report.id, { onError: showError });
                  }}
                  data-testid="room-report-dismiss"
                >
                  {t('reports.dismiss')}
                </Button>
              </Group>
            </Stack>
          </Card>
        ))
      )}
    </Stack>
  );
}
