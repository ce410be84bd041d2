import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCalendarPlus, IconDoorEnter, IconHeadphones } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { EncoreEvent } from '../model';
import { calendarUrl, canListenNow, clockTime, concertPath } from '../model';
import { eventQueryOptions } from '../queries';
import { useLocale } from './event-parts';

/** "Add to calendar": the server's .ics file of the concert. */
export function AddToCalendar({ id }: { id: string }): ReactNode {
  const { t } = useTranslation('concert');
  return (
    <Button component="a" href={calendarUrl(id)} download variant="default" leftSection={<IconCalendarPlus size={16} />} data-testid="add-to-calendar">
      {t('addToCalendar')}
    </Button>
  );
}

/**
 * Before the doors open: Listen is disabled with the doors' time (never an error), the
 * calendar file, and what reminder comes (ticket holders are notified when the doors open).
 */
export function DoorsLobby({ event }: { event: Pick<EncoreEvent, 'id' | 'owned' | 'state'> }): ReactNode {
  const { t } = useTranslation('concert');
  const locale = useLocale();
  const time = clockTime(event.state.doorsAt, locale);
  return (
    <Stack gap="xs" data-testid="doors-lobby">
      <Group gap="xs" wrap="nowrap">
        <IconDoorEnter size={18} />
        <Text fw={600} data-testid="doors-at">
          {t('doorsAt', { time })}
        </Text>
      </Group>
      <Group gap="xs">
        {event.owned ? (
          <Button leftSection={<IconHeadphones size={16} />} disabled title={t('doorsHint')} data-testid="player-listen-disabled">
            {t('listen')}
          </Button>
        ) : null}
        <AddToCalendar id={event.id} />
      </Group>
      <Text size="sm" c="dimmed">
        {event.owned ? t('reminderHolder') : t('reminderVisitor')}
      </Text>
    </Stack>
  );
}

/** "Listen now" for a fan whose concert is open for listening (after buying a live show). */
export function ListenNowButton({ id }: { id: string }): ReactNode {
  const { t } = useTranslation('concert');
  return (
    <Button component={Link} to={concertPath(id)} color="red" leftSection={<IconHeadphones size={16} />} data-testid="listen-now">
      {t('listenNow')}
    </Button>
  );
}

/** After buying: "Listen now" for a bought concert that is open for listening (live, doors
 * or replay), so buying a live show lands on its player. */
export function ListenNowIfOpen({ id }: { id: string }): ReactNode {
  const event = useQuery(eventQueryOptions(id));
  return event.data && canListenNow(event.data) ? <ListenNowButton id={id} /> : null;
}
