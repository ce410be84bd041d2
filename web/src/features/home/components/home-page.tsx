import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarEvent, IconHeadphones, IconLayoutDashboard, IconTicket } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { meQueryOptions } from '../../auth/queries';

export function HomePage(): ReactNode {
  const { t } = useTranslation();
  const { data: user } = useSuspenseQuery(meQueryOptions());
  const cards = [
    { icon: IconCalendarEvent, title: t('home.eventsTitle'), text: t('home.eventsText'), to: '/events', cta: t('nav.events') },
    { icon: IconTicket, title: t('home.ticketsTitle'), text: t('home.ticketsText'), to: '/my-events', cta: t('nav.myEvents') },
    { icon: IconLayoutDashboard, title: t('home.dashboardTitle'), text: t('home.dashboardText'), to: '/dashboard', cta: t('nav.dashboard') },
  ];
  return (
    <Stack gap="lg">
      <Card withBorder padding="xl" className="encore-auth-panel">
        <Group wrap="nowrap" gap="lg">
          <ThemeIcon size={64} radius="xl" variant="white" color="encore">
            <IconHeadphones size={36} />
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={2} data-testid="home-title">
              {t('home.welcome', { name: user.fullname || user.email })}
            </Title>
            <Text>{t('home.tagline')}</Text>
          </Stack>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {cards.map((card) => (
          <Card key={card.to} withBorder padding="lg">
            <Stack gap="sm" h="100%" justify="space-between">
              <Stack gap="xs">
                <ThemeIcon variant="light" size="lg">
                  <card.icon size={20} />
                </ThemeIcon>
                <Text fw={600}>{card.title}</Text>
                <Text size="sm" c="dimmed">
                  {card.text}
                </Text>
              </Stack>
              <Button component={Link} to={card.to} variant="light">
                {card.cta}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
