import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../events/components/event-parts';
import { markersQueryOptions } from '../../events/queries';
import { createStreamSession } from '../api';
import { formatClock, recordingUrlOf } from '../model';

/**
 * "Download the set" on the stage after the show, for a holder inside the window: the
 * recording as one `.m4a` with its songs as chapters (listed here as the file has them). The
 * link is signed by a listening session: the one playing this concert, else a new one (which,
 * like pressing Listen, ends the ticket's session on another device).
 */
export function DownloadSet({ eventId, playlistUrl }: { eventId: string; playlistUrl: string | null }): ReactNode {
  const { t } = useTranslation('stage');
  const locale = useLocale();
  const markers = useQuery(markersQueryOptions(eventId));
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const download = async (): Promise<void> => {
    setBusy(true);
    setFailed(false);
    try {
      const url = (playlistUrl && recordingUrlOf(eventId, playlistUrl)) ?? (await createStreamSession(eventId)).recordingUrl;
      window.location.assign(url);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
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
        <Button leftSection={<IconDownload size={16} />} loading={busy} onClick={() => void download()} data-testid="download-set-button" style={{ alignSelf: 'flex-start' }}>
          {t('set.download')}
        </Button>
        {failed ? (
          <Text size="sm" c="red">
            {t('set.failed')}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
