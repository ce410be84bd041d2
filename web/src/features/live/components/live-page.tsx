import { Alert, Grid, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useReducer, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import type { ConcertFigures, LiveSnapshot } from '../live-page-model';
import { INITIAL_LIVE_PAGE, livePageReducer, needsSnapshot } from '../live-page-model';
import { LIVE_POLL_MS, liveKeys, liveOverviewQueryOptions } from '../queries';
import type { ActivityMessage } from '../socket-protocol';
import { LiveConcertCard } from './live-page-concert';
import { LiveFeed } from './live-page-feed';
import { FollowConcert, useSocketLive, useStaffActivity } from './live-page-socket';

/** Admin and sa: concerts live now with their listeners, and what happens as it happens. */
export function LivePage(): ReactNode {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(livePageReducer, INITIAL_LIVE_PAGE);
  const socketLive = useSocketLive();
  const overview = useQuery(liveOverviewQueryOptions(!socketLive));

  // Each answer of GET /live is merged once into what the socket brought meanwhile.
  const [applied, setApplied] = useState<LiveSnapshot | undefined>(undefined);
  if (overview.data && overview.data !== applied) {
    setApplied(overview.data);
    dispatch({ type: 'snapshot', snapshot: overview.data });
  }

  const refetch = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: liveKeys.overview });
  }, [queryClient]);
  useStaffActivity(
    useCallback(
      (message: ActivityMessage) => {
        dispatch({ type: 'activity', activity: message.activity });
        if (needsSnapshot(message.activity)) refetch();
      },
      [refetch],
    ),
    refetch,
  );
  const onStatus = useCallback((eventId: string, status: ConcertFigures) => {
    dispatch({ type: 'status', eventId, status, at: Date.now() });
  }, []);

  return (
    <Stack gap="lg" data-testid="live-page" data-socket={socketLive ? 'live' : 'polling'}>
      <PageHeader title={t('live.title')} description={t('live.subtitle')} />
      {socketLive ? null : (
        <Alert color="gray" icon={<IconPlugConnectedX size={18} />} data-testid="live-page-polling">
          {t('live.polling', { seconds: LIVE_POLL_MS / 1000 })}
        </Alert>
      )}
      {overview.isError && !overview.data ? <Text c="red">{t('live.loadFailed')}</Text> : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Title order={3}>{t('live.concerts.title')}</Title>
            {overview.isPending ? (
              <Skeleton h={220} />
            ) : state.concerts.length === 0 ? (
              <EmptyState title={t('live.concerts.empty')} />
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="live-concerts">
                {state.concerts.map((concert) => (
                  <LiveConcertCard key={concert.eventId} concert={concert} />
                ))}
              </SimpleGrid>
            )}
            {state.concerts
              .filter((concert) => !concert.ended)
              .map((concert) => (
                <FollowConcert key={concert.eventId} eventId={concert.eventId} onStatus={onStatus} />
              ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          {overview.isPending ? <Skeleton h={220} /> : <LiveFeed feed={state.feed} />}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
