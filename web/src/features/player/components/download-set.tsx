import { Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../events/components/event-parts';
import { markersQueryOptions } from '../../events/queries';
import { createStreamSession } from '../api';
import type { SetFormat } from '../model';
import { formatClock, recordingUrlOf } from '../model';
import { listeningStatusQueryOptions } from '../queries';

/**
 * "Download the set" on the stage after the show, for a holder inside the window: the
 * recording as one `.m4a` with its songs as chapters (listed here as the file has them), and
 * as `.flac` too when the show was recorded losslessly (the listening status says so). Either
 * link is signed by a listening session: the one playing this concert, else a new one (which,
 * like pressing Listen, ends the ticket's session on another device).
 */
export function DownloadSet({ eventId, playlistUrl }: { eventId: string; playlistUrl: string | null }): ReactNode {
  const { t } = useTranslation('stage');
  const locale = useLocale();
  const markers = useQuery(markersQueryOptions(eventId));
  const lossless = useQuery(listeningStatusQueryOptions(eventId)).data?.losslessSet === true;
  const [busy, setBusy] = useState<SetFormat | null>(null);
  const [failed, setFailed] = useState(false);

  const download = async (format: SetFormat): Promise<void> => {
    setBusy(format);
    setFailed(false);
    try {
      const url = (playlistUrl && recordingUrlOf(eventId, playlistUrl, format)) ?? recordingUrlOf(eventId, (await createStreamSession(eventId)).playlistUrl, format);
      if (!url) throw new Error('no session token');
      window.location.assign(url);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };

  const songs = markers.data ?? [];
  return (
    <Card withBorder padding="lg" data-testid="download-set">
      <Stack gap="sm">
        <Title order={3}>{t('set.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('set.about')}
        </Text>
        {songs.length > 0 ? (
          <List type="ordered" size="sm" spacing={4} data-testid="download-set-chapters" listStyleType={locale.startsWith('fa') ? 'persian' : undefined}>
            {songs.map((song) => (
              <List.Item key={song.id}>
                <Text span size="sm" dir="auto">
                  {song.title}
                </Text>{' '}
                <Text span size="xs" c="dimmed" dir="ltr">
                  {formatClock(song.atMs / 1000, locale)}
                </Text>
              </List.Item>
            ))}
          </List>
        ) : null}
        {lossless ? (
          <Text size="sm" c="dimmed" data-testid="download-set-flac-about">
            {t('set.aboutFlac')}
          </Text>
        ) : null}
        <Group gap="sm">
          <Button leftSection={<IconDownload size={16} />} loading={busy === 'm4a'} disabled={busy === 'flac'} onClick={() => void download('m4a')} data-testid="download-set-button">
            {t('set.download')}
          </Button>
          {lossless ? (
            <Button variant="light" leftSection={<IconDownload size={16} />} loading={busy === 'flac'} disabled={busy === 'm4a'} onClick={() => void download('flac')} data-testid="download-set-flac">
              {t('set.downloadFlac')}
            </Button>
          ) : null}
        </Group>
        {failed ? (
          <Text size="sm" c="red">
            {t('set.failed')}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
