import { Box, Button, Card, Container, List, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockHour4, IconWorld } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthStatus } from '../../auth/session';
import { meQueryOptions } from '../../auth/queries';
import { eventListQueryOptions } from '../../events/queries';
import { concertShelves } from '../../events/model';
import { useStateRefresh } from '../../events/use-state-refresh';
import { FloatingMiniPlayer } from '../../player/components/mini-player';
import { EventSection } from './home-event-card';
import { PublicHeader } from './public-header';

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
  const { live, upcoming, replays } = concertShelves(events);
  return (
    <Box mih="100vh">
      <PublicHeader links={hasToken ? [] : [{ label: t('home.signUp'), to: '/auth/signup', testId: 'home-sign-up' }]}>
        {hasToken ? (
          <Button component={Link} to="/dashboard" variant="white" data-testid="home-dashboard">
            {t('common:nav.dashboard')}
          </Button>
        ) : (
          <Button component={Link} to="/auth/login" variant="white" data-testid="home-sign-in">
            {t('home.signIn')}
          </Button>
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
