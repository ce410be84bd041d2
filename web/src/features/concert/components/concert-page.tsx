import { Anchor, Button, Card, Group, List, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { NotFoundPage } from '../../errors/components/not-found-page';
import { useAuthStatus } from '../../auth/session';
import { formatPrice } from '../../cart/model';
import { AddToCalendar, DoorsLobby } from '../../events/components/concert-state';
import { ArtistLink, EventBuyButton, EventImage, SeatsText, StateBadge, formatWhen, useLocale } from '../../events/components/event-parts';
import type { EncoreEvent } from '../../events/model';
import { canListenNow, concertPath } from '../../events/model';
import { eventQueryOptions } from '../../events/queries';
import { useStateRefresh } from '../../events/use-state-refresh';
import { ListenButton } from '../../player/components/listen-button';
import { ApiError } from '../../../lib/errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { authLink } from '../return-path';
import { ShareButton } from '../../../components/share-button';
import { TitleAndBadge } from '../../../components/title-and-badge';
import { ConcertTiers, hasTierCards } from './concert-tiers';
import { PublicConcertsFrame } from './public-concerts-frame';

/** Buy, for a signed-in fan; for a visitor, sign up (or sign in) and come back here. With
 * tier cards, the fan buys on a card: no default-tier button here, only "owned" or "in the
 * cart" once it is so. */
function BuyOrSignUp({ event }: { event: EncoreEvent }): ReactNode {
  const { t } = useTranslation('concert');
  const { hasToken } = useAuthStatus();
  if (hasToken) return <EventBuyButton event={event} statusOnly={hasTierCards(event)} />;
  if (event.notOnSale) {
    return (
      <Button disabled title={event.notOnSale}>
        {event.notOnSale}
      </Button>
    );
  }
  const back = concertPath(event.id);
  return (
    <Stack gap={4} align="flex-start">
      <Button component={Link} to={authLink('/auth/signup', back)} leftSection={<IconUserPlus size={16} />} data-testid="concert-sign-up">
        {t('page.signUpToBuy')}
      </Button>
      <Text size="sm">
        {t('page.haveAccount')}{' '}
        <Anchor component={Link} to={authLink('/auth/login', back)} data-testid="concert-sign-in">
          {t('page.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}

function ConcertDetails({ event }: { event: EncoreEvent }): ReactNode {
  const { t } = useTranslation('concert');
  const locale = useLocale();
  useStateRefresh([event.state]);
  const { phase } = event.state;
  return (
    <Card withBorder padding={0} data-testid="concert-page" data-phase={phase}>
      <EventImage event={event} height={320} full />
      <Stack gap="md" p="lg">
        <TitleAndBadge badge={<StateBadge state={event.state} />}>
          <Stack gap={2}>
            <Title order={2} dir="auto" data-testid="concert-title">
              {event.title}
            </Title>
            <ArtistLink event={event} size="lg" fw={600} testId="concert-artist" />
          </Stack>
        </TitleAndBadge>
        <Text data-testid="concert-when">{formatWhen(event.startsAt, locale)}</Text>
        {event.description ? <Text style={{ whiteSpace: 'pre-wrap' }}>{event.description}</Text> : null}
        <Group justify="space-between">
          <Text fw={800} size="xl" data-testid="concert-price">
            {formatPrice(event.price, event.currency, locale)}
          </Text>
          <SeatsText event={event} />
        </Group>
        <ConcertTiers event={event} />
        <Stack gap={4}>
          <Text fw={600}>{t('page.gives')}</Text>
          <List spacing={4} icon={<ThemeIcon size={20} radius="xl" variant="light" color="teal"><IconCheck size={14} /></ThemeIcon>}>
            <List.Item>{t('page.access')}</List.Item>
            <List.Item>{t('page.replay')}</List.Item>
            <List.Item>{t('page.anywhere')}</List.Item>
          </List>
        </Stack>
        {phase === 'upcoming' ? <DoorsLobby event={event} /> : null}
        {canListenNow(event) ? <ListenButton event={event} fullWidth /> : null}
        <Group>
          <BuyOrSignUp event={event} />
          {phase === 'doors' ? <AddToCalendar id={event.id} /> : null}
          <ShareButton title={event.title} path={concertPath(event.id)} />
        </Group>
      </Stack>
    </Card>
  );
}

/** `/concerts/{id}`: a concert for everyone, signed in or not; the link people share. */
export function ConcertPage(): ReactNode {
  const { t } = useTranslation('concert');
  const { id = '' } = useParams();
  const concert = useQuery({ ...eventQueryOptions(id), retry: false });
  usePageTitle(concert.data?.title);
  if (concert.isError && concert.error instanceof ApiError && concert.error.status === 404) return <NotFoundPage />;
  return (
    <PublicConcertsFrame size="md">
      {concert.isPending ? <Skeleton h={480} /> : concert.isError ? <Text c="red">{t('page.loadFailed')}</Text> : <ConcertDetails event={concert.data} />}
    </PublicConcertsFrame>
  );
}
