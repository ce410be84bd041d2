import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TitleOrder } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '../../cart/model';
import type { EncoreEvent } from '../../events/model';
import { concertPath } from '../../events/model';
import { EventImage, EventSummary, StateBadge, useLocale } from '../../events/components/event-parts';

/** A concert on the public pages (home, an artist's page): the whole card opens the concert's
 * page, the artist's name the artist's. */
export function HomeEventCard({ event, signedIn }: { event: EncoreEvent; signedIn: boolean }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  return (
    <Card withBorder padding="md" data-testid="home-event">
      <Card.Section>
        <EventImage event={event} height={160} />
      </Card.Section>
      <Stack gap={4} mt="sm">
        <EventSummary event={event} to={concertPath(event.id)} badge={event.state.phase === 'upcoming' ? null : <StateBadge state={event.state} />} />
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

/** A titled grid of concert cards; nothing when there are none. */
export function EventSection({ title, events, signedIn, testId, order = 3 }: { title: string; events: EncoreEvent[]; signedIn: boolean; testId: string; order?: TitleOrder }): ReactNode {
  if (events.length === 0) return null;
  return (
    <Stack gap="sm" data-testid={testId}>
      <Title order={order}>{title}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {events.map((event) => (
          <HomeEventCard key={event.id} event={event} signedIn={signedIn} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
