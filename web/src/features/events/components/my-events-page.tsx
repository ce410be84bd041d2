import { Button, Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import type { EncoreEvent } from '../model';
import { MY_EVENTS_PAGE_SIZE, canListenNow, clockTime, countdown, countdownText, isolateLtr, neverAired, startingSoon } from '../model';
import { myEventsQueryOptions } from '../queries';
import { ListenButton } from '../../player/components/listen-button';
import { EventImage, EventSummary, StateBadge, formatWhen, useLocale } from './event-parts';
import { DoorsLobby } from './concert-state';
import { useStateRefresh } from '../use-state-refresh';
import { Pager } from '../../../components/pager';
import { localDigits } from '../../../i18n/numbers';
import { useNow } from '../../../lib/use-now';

export function TicketCard({ event, now }: { event: EncoreEvent; now: number }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  const { phase } = event.state;
  return (
    <Card withBorder padding="md" data-testid="ticket-card" data-phase={phase}>
      <Card.Section>
        <EventImage event={event} height={140} />
      </Card.Section>
      <Stack gap={4} mt="sm">
        <EventSummary event={event} badge={<StateBadge state={event.state} />} />
        {phase === 'upcoming' ? (
          <>
            <Text fw={600} data-testid="countdown">
              {t('startsIn', { time: localDigits(countdownText(countdown(Date.parse(event.startsAt), now), (count) => t('countdownDays', { count }), isolateLtr), locale) })}
            </Text>
            <DoorsLobby event={event} />
          </>
        ) : phase === 'doors' ? (
          <Text fw={600} data-testid="starts-at">
            {t('concert:startsAt', { time: clockTime(event.startsAt, locale) })}
          </Text>
        ) : phase === 'live' ? (
          startingSoon(event.state) ? (
            <Text fw={600} c="orange" data-testid="waiting-for-artist">
              {t('concert:waitingForArtist')}
            </Text>
          ) : (
            <Text fw={600} c="red">
              {t('liveNow')}
            </Text>
          )
        ) : neverAired(event.state) ? (
          <Text size="sm" c="dimmed" data-testid="not-aired">
            {t('notAiredText')}
          </Text>
        ) : phase === 'replay' ? (
          <Text size="sm">{t('replayUntil', { date: formatWhen(event.state.replayUntil, locale) })}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            {phase === 'cancelled' ? t('cancelledText') : t('expiredText')}
          </Text>
        )}
        {canListenNow(event) ? <ListenButton event={event} /> : null}
      </Stack>
    </Card>
  );
}

/** The fan's concerts with their access state (live, upcoming, replay, then expired), paged. */
export function MyEventsPage(): ReactNode {
  const { t } = useTranslation('events');
  const [page, setPage] = useState(1);
  const mine = useQuery(myEventsQueryOptions(page, MY_EVENTS_PAGE_SIZE));
  const now = useNow();
  useStateRefresh((mine.data?.items ?? []).map((event) => event.state));
  const pages = mine.data ? Math.max(1, Math.ceil(mine.data.total / mine.data.pageSize)) : 1;
  return (
    <>
      <PageHeader title={t('common:nav.myEvents')} description={t('common:pages.myEvents.intro')} />
      {mine.isPending ? (
        <Skeleton h={240} />
      ) : mine.isError ? (
        <Text c="red">{t('myLoadFailed')}</Text>
      ) : mine.data.items.length === 0 && page === 1 ? (
        <EmptyState
          title={t('common:pages.myEvents.emptyTitle')}
          description={t('common:pages.myEvents.emptyText')}
          action={
            <Button component={Link} to="/events">
              {t('common:cart.browse')}
            </Button>
          }
        />
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="my-events" data-total={mine.data.total}>
            {mine.data.items.map((event) => (
              <TicketCard key={event.id} event={event} now={now} />
            ))}
          </SimpleGrid>
          <Pager pages={pages} page={page} onChange={setPage} testId="my-events-pagination" />
        </Stack>
      )}
    </>
  );
}
