import { Anchor, Drawer, Group, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { formatPrice } from '../../cart/model';
import { ListenButton } from '../../player/components/listen-button';
import { PassOffers } from '../../payments/components/pass-offers';
import { EVENTS_PAGE_SIZE, canListenNow, concertPath } from '../model';
import { eventListQueryOptions, eventQueryOptions } from '../queries';
import { ArtistLink, StateBadge, EventBuyButton, EventCard, EventImage, SeatsText, formatWhen, useLocale } from './event-parts';
import { Pager } from '../../../components/pager';
import { DoorsLobby } from './concert-state';
import { useStateRefresh } from '../use-state-refresh';


function EventDetails({ id }: { id: string }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  const { data: event, isPending, isError } = useQuery(eventQueryOptions(id));
  if (isPending) return <Skeleton h={320} />;
  if (isError) return <Text c="red">{t('detailsFailed')}</Text>;
  return (
    <Stack gap="sm" data-testid="event-details">
      <EventImage event={event} height={260} full />
      <Group justify="space-between">
        <Title order={3} dir="auto">
          {event.title}
        </Title>
        <StateBadge state={event.state} />
      </Group>
      <ArtistLink event={event} size="md" fw={600} testId="event-details-artist" />
      <Text c="dimmed">{formatWhen(event.startsAt, locale)}</Text>
      {event.durationMinutes ? <Text size="sm">{t('duration', { count: event.durationMinutes })}</Text> : null}
      <Text size="sm">{t('accessUntil', { date: formatWhen(event.accessUntil, locale) })}</Text>
      <Text style={{ whiteSpace: 'pre-wrap' }}>{event.description || t('noDescription')}</Text>
      <Group justify="space-between">
        <Text fw={800} size="xl">
          {formatPrice(event.price, event.currency, locale)}
        </Text>
        <SeatsText event={event} />
      </Group>
      {canListenNow(event) ? <ListenButton event={event} fullWidth /> : null}
      {event.state.phase === 'upcoming' ? <DoorsLobby event={event} /> : null}
      <Anchor component={Link} to={concertPath(event.id)} size="sm" data-testid="event-page-link">
        {t('concert:page.open')}
      </Anchor>
      <EventBuyButton event={event} fullWidth />
    </Stack>
  );
}

/** Active concerts (published, live, recently ended) with search, paging and a details drawer. */
export function EventsPage(): ReactNode {
  const { t } = useTranslation('events');
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const list = useQuery(eventListQueryOptions({ page, pageSize: EVENTS_PAGE_SIZE, search: debounced }));
  const open = params.get('event');
  const setOpen = (id: string | null): void => {
    const next = new URLSearchParams(params);
    if (id) next.set('event', id);
    else next.delete('event');
    setParams(next);
  };
  useStateRefresh((list.data?.items ?? []).map((event) => event.state));
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;

  return (
    <>
      <PageHeader
        title={t('common:nav.events')}
        description={t('common:pages.events.intro')}
        actions={
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t('search')}
            aria-label={t('search')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            data-testid="events-search"
          />
        }
      />
      {list.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} h={320} />
          ))}
        </SimpleGrid>
      ) : list.isError ? (
        <Text c="red">{t('loadFailed')}</Text>
      ) : list.data.items.length === 0 ? (
        <EmptyState
          title={debounced ? t('common:empty.itemsNotFound') : t('common:pages.events.emptyTitle')}
          description={debounced ? undefined : t('common:pages.events.emptyText')}
        />
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="events-grid">
            {list.data.items.map((event) => (
              <EventCard
                key={event.id}
                event={event}
                onOpen={() => {
                  setOpen(event.id);
                }}
              />
            ))}
          </SimpleGrid>
          <Pager pages={pages} page={page} onChange={setPage} />
        </Stack>
      )}
      <PassOffers />
      <Drawer
        opened={open !== null}
        onClose={() => {
          setOpen(null);
        }}
        position="right"
        size="lg"
        title={t('details')}
      >
        {open ? <EventDetails id={open} /> : null}
      </Drawer>
    </>
  );
}
