import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconClock, IconTrash, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors';
import type { ChatReport } from '../model';
import type { RoomView } from '../use-room';
import { useRoomActions } from '../use-room';
import { MessageBody } from './room-message';

/**
 * The reports that reached the artist's live panel while it was open (`chat_report` on the
 * concert's channel), newest first, each with Delete and a five-minute timeout. A message
 * deleted meanwhile (by anyone) takes its reports along.
 */
export function RoomReports({ view, reports, onDone }: { view: RoomView; reports: readonly ChatReport[]; onDone: (messageId: string) => void }): ReactNode {
  const { t } = useTranslation('room');
  const actions = useRoomActions(view);
  const showError = (error: unknown): void => {
    notifications.show({ color: 'red', message: errorText(error, t) });
  };
  const open = reports.filter((report) => !view.deleted.includes(report.message.id));
  return (
    <Stack gap="xs" data-testid="room-reports" data-count={open.length}>
      <Text fw={600}>{t('reports.title')}</Text>
      {open.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('reports.empty')}
        </Text>
      ) : (
        open.map((report) => (
          <Card key={report.id} withBorder padding="xs" data-testid="room-report" data-message={report.message.id}>
            <Stack gap={4}>
              <MessageBody message={report.message} />
              <Text size="xs" c="dimmed">
                {t('reports.by', { name: report.reporterName })}
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  leftSection={<IconTrash size={14} />}
                  onClick={() => {
                    actions.remove.mutate(report.message.id, {
                      onSuccess: () => {
                        onDone(report.message.id);
                      },
                      onError: showError,
                    });
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
                          onSuccess: () => notifications.show({ color: 'green', message: t('moderation.done.timeout_5m', { author: report.message.author }) }),
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
                  onClick={() => {
                    onDone(report.message.id);
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
