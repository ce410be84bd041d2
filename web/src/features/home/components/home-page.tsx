import { Box, Button, Card, Container, Group, List, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockHour4, IconWorld } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthStatus } from '../../auth/session';
import { meQueryOptions } from '../../auth/queries';
import { formatPrice } from '../../cart/model';
import type { EncoreEvent } from '../../events/model';
import { eventListQueryOptions } from '../../events/queries';
import { EventImage, EventSummary, StateBadge, useLocale } from '../../events/components/event-parts';
import { concertPath, onAirNow, replayable, startingSoon } from '../../events/model';
import { useStateRefresh } from '../../events/use-state-refresh';
import { FloatingMiniPlayer } from '../../player/components/mini-player';
import { PublicHeader } from './public-header';

function HomeEventCard({ event, signedIn }: { event: EncoreEvent; signedIn: boolean }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  return (
    <Card withBorder padding="md" component={Link} to={concertPath(event.id)} data-testid="home-event">
      <Card.Section>
        <EventImage event={event} height={160} />
      </Card.Section>
      <Stack gap={4} mt="sm">
        <EventSummary event={event} badge={event.state.phase === 'upcoming' ? null : <StateBadge state={event.state} />} />
        <Group justify="space-between">
          <Text fw={700}>{formatPrice(event.price, event.currency, locale)}</Text>
          <Text size="sm" c="encore">
            {signedIn ? t('details') : t('home.signInToBuy')}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

function EventSection({ title, events, signedIn, testId }: { title: string; events: EncoreEvent[]; signedIn: boolean; testId: string }): ReactNode {
  if (events.length === 0) return null;
  return (
    <Stack gap="sm" data-testid={testId}>
      <Title order={3}>{title}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {events.map((event) => (
          <HomeEventCard key={event.id} event={event} signedIn={signedIn} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Welcome(): ReactNode {
  const { t } = useTranslation('events');
  const me = useQuery(meQueryOptions());
  return (
    <Title order={2} data-testid="home-title">
      {me.data ? t('common:home.welcome', { name: me.data.fullname || me.data.email }) : t('home.headline')}
    </Title>
  );
}

/** The public landing page: live-now, upcoming and today's replayable concerts, no sign-in
 * needed. */
export function HomePage(): ReactNode {
  const { t } = useTranslation('events');
  const { hasToken } = useAuthStatus();
  const list = useQuery(eventListQueryOptions({ page: 1, pageSize: 24 }));
  const events = list.data?.items ?? [];
  useStateRefresh(events.map((event) => event.state));
  // "Live now" is what is on air; a show past its start still waiting for its artist is
  // among the upcoming ones, first.
  const live = events.filter((event) => onAirNow(event.state));
  const upcoming = events.filter((event) => startingSoon(event.state) || event.state.phase === 'upcoming' || event.state.phase === 'doors');
  const replays = events.filter(replayable);
  return (
    <Box mih="100vh">
      <PublicHeader>
        {hasToken ? (
          <Button component={Link} to="/dashboard" variant="white" data-testid="home-dashboard">
            {t('common:nav.dashboard')}
          </Button>
        ) : (
          <>
            <Button component={Link} to="/auth/signup" variant="subtle" color="white">
              {t('home.signUp')}
            </Button>
            <Button component={Link} to="/auth/login" variant="white" data-testid="home-sign-in">
              {t('home.signIn')}
            </Button>
          </>
        )}
      </PublicHeader>
      <Container size="lg" py="xl">
        <Stack gap="xl">
          <Card withBorder padding="xl">
            <Stack gap="md">
              {hasToken ? (
                <Welcome />
              ) : (
                <Title order={2} data-testid="home-title">
                  {t('home.headline')}
                </Title>
              )}
              <Text>{t('common:home.tagline')}</Text>
              <List spacing="sm" center>
                <List.Item icon={<ThemeIcon radius="xl" variant="light"><IconClockHour4 size={16} /></ThemeIcon>}>{t('auth:panel.access')}</List.Item>
                <List.Item icon={<ThemeIcon radius="xl" variant="light"><IconWorld size={16} /></ThemeIcon>}>{t('auth:panel.artists')}</List.Item>
              </List>
            </Stack>
          </Card>
          {list.isPending ? (
            <Skeleton h={260} />
          ) : list.isError ? (
            <Text c="red">{t('loadFailed')}</Text>
          ) : live.length + upcoming.length + replays.length === 0 ? (
            <Text c="dimmed" ta="center" data-testid="home-empty">
              {t('home.noConcerts')}
            </Text>
          ) : (
            <>
              <EventSection title={t('home.liveNow')} events={live} signedIn={hasToken} testId="home-live" />
              <EventSection title={t('home.upcoming')} events={upcoming} signedIn={hasToken} testId="home-upcoming" />
              <EventSection title={t('home.replay')} events={replays} signedIn={hasToken} testId="home-replay" />
            </>
          )}
        </Stack>
      </Container>
      <FloatingMiniPlayer />
    </Box>
  );
}
