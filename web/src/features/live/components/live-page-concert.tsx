import { Badge, Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { formatNumber } from '../../../i18n/numbers';
import { formatClock } from '../../player/model';
import { ArtistLink } from '../../events/components/event-parts';
import type { LiveConcertView } from '../live-page-model';
import { TitleAndBadge } from '../../../components/title-and-badge';

/** The chart library is heavy: it loads when a live concert is on screen. */
const LivePageChart = lazy(() => import('./live-page-chart'));

type ShowState = 'ended' | 'onAir' | 'offline' | 'starting';

function showState(concert: LiveConcertView): ShowState {
  if (concert.ended) return 'ended';
  if (!concert.status) return 'starting';
  return concert.status.publisherConnected ? 'onAir' : 'offline';
}

const STATE_COLOR: Record<ShowState, string> = { onAir: 'red', offline: 'gray', ended: 'grape', starting: 'yellow' };

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }): ReactNode {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** One concert live now: who plays, whether an encoder or browser is sending, its figures and listeners over time. */
export function LiveConcertCard({ concert }: { concert: LiveConcertView }): ReactNode {
  const { t, i18n } = useTranslation('dashboard');
  const state = showState(concert);
  const status = concert.status;
  const locale = localeOf(i18n.language);
  const figure = (value: number): string => formatNumber(value, i18n.language);
  return (
    <Card withBorder padding="md" data-testid="live-concert" data-event={concert.eventId} data-state={state}>
      <Stack gap="sm">
        <TitleAndBadge
          badge={
            <Badge color={STATE_COLOR[state]} variant={state === 'onAir' ? 'filled' : 'light'} style={{ flexShrink: 0 }} data-testid="live-concert-state">
              {t(`live.concerts.${state}`)}
            </Badge>
          }
        >
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={700} dir="auto" lineClamp={2} data-testid="live-concert-title">
              {concert.title}
            </Text>
            {concert.artistName && concert.projectId ? (
              <ArtistLink event={{ artistName: concert.artistName, projectId: concert.projectId }} c="dimmed" testId="live-concert-artist" />
            ) : null}
          </Stack>
        </TitleAndBadge>
        {status ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            <Figure label={t('live.concerts.listeners')} value={figure(status.listeners)} testId="live-concert-listeners" />
            <Figure label={t('live.concerts.encoder')} value={status.publisherConnected ? t('live.concerts.connected') : t('live.concerts.notConnected')} testId="live-concert-encoder" />
            <Figure label={t('live.concerts.bitrate')} value={figure(Math.round(status.bitrateKbps))} testId="live-concert-bitrate" />
            {/* The clock reads left to right in every language, in the language's digits. */}
            <Figure label={t('live.concerts.recorded')} value={`\u2066${formatClock(status.recordedSeconds, locale)}\u2069`} testId="live-concert-recorded" />
          </SimpleGrid>
        ) : (
          <Skeleton h={40} />
        )}
        <Text size="xs" c="dimmed">
          {t('live.concerts.chart')}
        </Text>
        {concert.series.length > 0 ? (
          <Suspense fallback={<Skeleton h={140} />}>
            <LivePageChart series={concert.series} label={t('live.concerts.chartSeries')} language={i18n.language} />
          </Suspense>
        ) : (
          <Text size="sm" c="dimmed">
            {t('live.concerts.noSeries')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
