import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import { TicketCard } from '../../events/components/my-events-page';
import { useNow } from '../../../lib/use-now';
import { ACTIVE_PHASES } from '../../events/model';
import { managedEventsQueryOptions, myEventsQueryOptions } from '../../events/queries';
import { useStateRefresh } from '../../events/use-state-refresh';

const ConcertSalesChart = lazy(() => import('./concert-sales-chart'));

/** A fan's next concerts (upcoming, live or replay), at most three. */
export function NextConcerts(): ReactNode {
  const { t } = useTranslation('dashboard');
  const mine = useQuery(myEventsQueryOptions());
  const now = useNow();
  useStateRefresh((mine.data?.items ?? []).map((event) => event.state));
  const next = (mine.data?.items ?? []).filter((event) => ACTIVE_PHASES.includes(event.state.phase)).slice(0, 3);
  return (
    <Stack gap="sm" data-testid="next-concerts">
      <Group justify="space-between">
        <Title order={3}>{t('fan.title')}</Title>
        <Button component={Link} to="/my-events" variant="subtle">
          {t('fan.all', { count: mine.data?.total ?? 0 })}
        </Button>
      </Group>
      {mine.isPending ? (
        <Skeleton h={160} />
      ) : mine.isError ? (
        <Text c="red">{t('fan.loadFailed')}</Text>
      ) : next.length === 0 ? (
        <Card withBorder>
          <Group justify="space-between">
            <Text c="dimmed">{t('fan.empty')}</Text>
            <Button component={Link} to="/events" variant="light">
              {t('common:cart.browse')}
            </Button>
          </Group>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {next.map((event) => (
            <TicketCard key={event.id} event={event} now={now} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** Staff and project members: tickets and revenue per concert (from /events/manage). */
export function SalesPerConcert(): ReactNode {
  const { t, i18n } = useTranslation('dashboard');
  const locale = localeOf(i18n.language);
  const managed = useQuery({ ...managedEventsQueryOptions(), retry: false });
  if (managed.isError) return null;
  const rows = (managed.data ?? []).filter((event) => event.status !== 'draft');
  return (
    <Stack gap="sm" data-testid="sales-per-concert">
      <Title order={3}>{t('sales.title')}</Title>
      {managed.isPending ? (
        <Skeleton h={200} />
      ) : rows.length === 0 ? (
        <Card withBorder>
          <Text c="dimmed">{t('sales.empty')}</Text>
        </Card>
      ) : (
        <Card withBorder>
          <Suspense fallback={<Skeleton h={240} />}>
            <ConcertSalesChart data={rows.slice(0, 12).map((event) => ({ title: event.title, tickets: event.ticketsSold }))} label={t('sales.tickets')} />
          </Suspense>
          <Table mt="md">
            <Table.Tbody>
              {rows.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{event.title}</Table.Td>
                  <Table.Td ta="end">{t('sales.sold', { count: event.ticketsSold })}</Table.Td>
                  <Table.Td ta="end" fw={600}>
                    {formatPrice(event.revenue, event.currency, locale)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}
