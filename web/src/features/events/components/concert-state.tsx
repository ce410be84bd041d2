import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBell, IconBellCheck, IconCalendarPlus, IconDoorEnter, IconHeadphones } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthStatus } from '../../auth/session';
import { authLink } from '../../concert/return-path';
import type { EncoreEvent } from '../model';
import { calendarUrl, canListenNow, clockTime, concertPath, reminderOffer } from '../model';
import { appPlayer } from '../../player/player';
import { toConcert } from '../../player/components/listen-button';
import { stagePath } from '../../player/components/mini-player';
import { useDoorsReminder } from '../mutations';
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

type LobbyEvent = Pick<EncoreEvent, 'id' | 'owned' | 'reminder' | 'state'>;

/**
 * "Remind me when doors open": a signed-in fan without a ticket asks (and may cancel); a
 * visitor signs in first and comes back to the concert; a holder is told anyway.
 */
export function DoorsReminder({ event }: { event: LobbyEvent }): ReactNode {
  const { t } = useTranslation('concert');
  const { hasToken } = useAuthStatus();
  const reminder = useDoorsReminder(event.id);
  const offer = reminderOffer(event, hasToken);
  switch (offer) {
    case 'none':
      return null;
    case 'holder':
      return (
        <Text size="sm" c="dimmed">
          {t('reminderHolder')}
        </Text>
      );
    case 'sign-in':
      return (
        <Stack gap={4} align="flex-start">
          <Button
            component={Link}
            to={authLink('/auth/login', concertPath(event.id))}
            variant="light"
            leftSection={<IconBell size={16} />}
            className="encore-button-wraps"
            data-testid="reminder-sign-in"
          >
            {t('reminder.ask')}
          </Button>
          <Text size="sm" c="dimmed">
            {t('reminder.signIn')}
          </Text>
        </Stack>
      );
    case 'ask':
      // Its label is long in some languages (Persian, at 360 px): it wraps rather than being cut.
      return (
        <Button
          variant="light"
          leftSection={<IconBell size={16} />}
          aria-pressed={false}
          loading={reminder.isPending}
          onClick={() => reminder.mutate(true)}
          className="encore-button-wraps"
          data-testid="reminder-ask"
        >
          {t('reminder.ask')}
        </Button>
      );
    case 'asked':
      return (
        <Group gap="xs" data-testid="reminder-on">
          {/* The bell stays beside its words when they wrap (a phone), the button going below. */}
          <Group gap="xs" wrap="nowrap" maw="100%">
            <IconBellCheck size={18} aria-hidden style={{ flexShrink: 0 }} />
            <Text size="sm" fw={600} data-testid="reminder-asked">
              {t('reminder.asked')}
            </Text>
          </Group>
          <Button variant="subtle" size="compact-sm" aria-pressed loading={reminder.isPending} onClick={() => reminder.mutate(false)} data-testid="reminder-cancel">
            {t('reminder.cancel')}
          </Button>
        </Group>
      );
  }
}

/**
 * Before the doors open: Listen is disabled with the doors' time (never an error), the
 * calendar file, and the reminder (holders are notified when the doors open; anyone else
 * signed in may ask to be).
 */
export function DoorsLobby({ event }: { event: LobbyEvent }): ReactNode {
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
      <DoorsReminder event={event} />
    </Stack>
  );
}

/**
 * "Listen now" for a fan whose concert is open for listening (after buying): starts it in the
 * app's player and opens its stage, where it plays (no second Listen to press). `named` puts
 * the concert's title on the button, for an order of several concerts.
 */
export function ListenNowButton({ event, named = false }: { event: Parameters<typeof toConcert>[0]; named?: boolean }): ReactNode {
  const { t } = useTranslation('concert');
  return (
    <Button
      component={Link}
      to={stagePath(event.id)}
      onClick={() => {
        appPlayer().play(toConcert(event));
      }}
      color="red"
      leftSection={<IconHeadphones size={16} />}
      // A long title wraps inside the button on a phone rather than being cut.
      className="encore-button-wraps"
      data-testid="listen-now"
      data-concert={event.id}
    >
      {/* The title in an isolate: it keeps its own direction inside a right-to-left label. */}
      {named ? t('listenNowTo', { title: `\u2068${event.title}\u2069` }) : t('listenNow')}
    </Button>
  );
}

/** After buying: "Listen now" for a bought concert that is open for listening (live, doors
 * or replay), so buying a live show lands on its player. */
export function ListenNowIfOpen({ id, named = false }: { id: string; named?: boolean }): ReactNode {
  const event = useQuery(eventQueryOptions(id));
  return event.data && canListenNow(event.data) ? <ListenNowButton event={event.data} named={named} /> : null;
}
