import { Anchor, Badge, Button, Card, Group, Image, Stack, Text, ThemeIcon } from '@mantine/core';
import type { AnchorProps } from '@mantine/core';
import { IconCheck, IconMusic, IconShoppingCartPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { artistPath } from '../../artist/model';
import { formatPrice } from '../../cart/model';
import { cartQueryOptions } from '../../cart/queries';
import type { EncoreEvent, Phase } from '../model';
import { neverAired, onAirNow, reconnecting, startingSoon } from '../model';
import { useAddEventToCart } from '../mutations';
import { TitleAndBadge } from '../../../components/title-and-badge';

export function useLocale(): string {
  const { i18n } = useTranslation();
  return localeOf(i18n.language);
}

const WHEN: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };

/** Start time in the viewer's time zone, in the chosen language (Intl's, with the language's
 * own comma: "،" in Persian). */
export function formatWhen(iso: string, locale: string): string {
  return formatDateTime(iso, locale, WHEN);
}

export function EventImage({ event, height = 180, full = false }: { event: Pick<EncoreEvent, 'image' | 'thumbnail' | 'title'>; height?: number; full?: boolean }): ReactNode {
  const src = full ? (event.image ?? event.thumbnail) : (event.thumbnail ?? event.image);
  if (!src) {
    // As tall as a picture would be (a ratio box capped by max-height overflowed onto the title).
    return (
      <ThemeIcon variant="light" radius={0} w="100%" h={height} style={{ display: 'flex' }}>
        <IconMusic size={48} />
      </ThemeIcon>
    );
  }
  return <Image src={src} alt={event.title} h={height} fit="cover" />;
}

const PHASE_COLOR: Record<Phase, string> = {
  draft: 'gray',
  upcoming: 'blue',
  doors: 'teal',
  live: 'red',
  replay: 'grape',
  expired: 'gray',
  cancelled: 'gray',
};

/** The concert's phase as the server computed it (one badge for every page): a show live by
 * its schedule with nothing on air yet reads "Starting soon", never "Live now"; one whose
 * encoder is away reads "Reconnecting…". */
export function StateBadge({ state }: { state: EncoreEvent['state'] }): ReactNode {
  const { t } = useTranslation('concert');
  const waiting = startingSoon(state);
  const away = reconnecting(state);
  const silent = neverAired(state);
  const label = waiting ? t('phase.startingSoon') : away ? t('phase.reconnecting') : silent ? t('phase.notAired') : t(`phase.${state.phase}`);
  return (
    <Badge
      color={waiting || away ? 'orange' : silent ? 'gray' : PHASE_COLOR[state.phase]}
      variant={onAirNow(state) && !away ? 'filled' : 'light'}
      style={{ flexShrink: 0 }}
      data-testid="state-badge"
      data-phase={state.phase}
      data-reason={state.reason ?? undefined}
      title={state.reason === 'on_air_early' ? t('onAirEarly') : waiting ? t('waitingForArtist') : undefined}
    >
      {label}
    </Badge>
  );
}

export function SeatsText({ event }: { event: EncoreEvent }): ReactNode {
  const { t } = useTranslation('events');
  if (event.capacity === null || event.seatsLeft === null) return null;
  if (event.seatsLeft <= 0) return <Badge color="red" variant="light">{t('soldOut')}</Badge>;
  return (
    <Text size="sm" c="dimmed">
      {t('seatsLeft', { count: event.seatsLeft })}
    </Text>
  );
}

/** Buy (add to cart), in cart, owned, or the reason it is not on sale. */
export function EventBuyButton({ event, fullWidth = false, statusOnly = false }: { event: EncoreEvent; fullWidth?: boolean; statusOnly?: boolean }): ReactNode {
  const { t } = useTranslation('events');
  const cart = useQuery(cartQueryOptions());
  const add = useAddEventToCart(event);
  if (event.owned) {
    return (
      <Button component={Link} to="/my-events" variant="light" color="green" leftSection={<IconCheck size={16} />} fullWidth={fullWidth} data-testid="event-owned">
        {t('owned')}
      </Button>
    );
  }
  const inCart = (cart.data ?? []).some((entry) => entry.event?.id === event.id);
  if (inCart) {
    return (
      <Button component={Link} to="/cart" variant="light" fullWidth={fullWidth} data-testid="event-in-cart">
        {t('inCart')}
      </Button>
    );
  }
  // Buying is elsewhere (the concert page's tier cards): only the states above show here.
  if (statusOnly) return null;
  const soldOut = event.seatsLeft !== null && event.seatsLeft <= 0;
  const reason = soldOut ? t('soldOut') : event.notOnSale;
  if (reason) {
    return (
      <Button disabled fullWidth={fullWidth} title={reason}>
        {reason}
      </Button>
    );
  }
  return (
    <Button
      leftSection={<IconShoppingCartPlus size={16} />}
      loading={add.isPending}
      onClick={() => {
        add.mutate({});
      }}
      fullWidth={fullWidth}
      data-testid="event-buy"
    >
      {t('addToCart')}
    </Button>
  );
}

/** The artist's name as a link to the artist's page (`/artists/{projectId}`), wherever a
 * concert names its artist. Inside a card whose title covers the card (`EventSummary`'s
 * `to`), it stays above that link; on a phone it is a thumb's height. */
export function ArtistLink({
  event,
  size = 'sm',
  fw,
  c,
  testId = 'artist-link',
}: {
  event: Pick<EncoreEvent, 'projectId' | 'artistName'>;
  size?: AnchorProps['size'];
  fw?: AnchorProps['fw'];
  c?: AnchorProps['c'];
  testId?: string;
}): ReactNode {
  return (
    <Anchor component={Link} to={artistPath(event.projectId)} size={size} fw={fw} c={c} dir="auto" className="encore-card-raised encore-link-tap" data-testid={testId}>
      {event.artistName}
    </Anchor>
  );
}

/** An event's title (with an optional badge beside it), artist and start, as every event card
 * shows them. With `to`, the title is the card's link and covers the whole card (a link
 * cannot hold the artist's link: only the title is one). */
export function EventSummary({ event, badge, to }: { event: EncoreEvent; badge?: ReactNode; to?: string }): ReactNode {
  const locale = useLocale();
  const title = (
    <Text fw={700} lineClamp={1} dir="auto">
      {event.title}
    </Text>
  );
  return (
    <>
      <TitleAndBadge badge={badge} align="center">
        {to ? (
          <Anchor component={Link} to={to} c="inherit" underline="never" className="encore-card-link" data-testid="event-title-link">
            {title}
          </Anchor>
        ) : (
          title
        )}
      </TitleAndBadge>
      <ArtistLink event={event} />
      <Text size="sm" c="dimmed">
        {formatWhen(event.startsAt, locale)}
      </Text>
    </>
  );
}

export function EventCard({ event, onOpen, action }: { event: EncoreEvent; onOpen?: () => void; action?: ReactNode }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  return (
    <Card withBorder padding="md" data-testid="event-card">
      <Card.Section>
        <EventImage event={event} />
      </Card.Section>
      <Stack gap={6} mt="sm" h="100%" justify="space-between">
        <Stack gap={4}>
          <EventSummary event={event} badge={event.state.phase === 'upcoming' ? null : <StateBadge state={event.state} />} />
          <Group justify="space-between">
            <Text fw={700} data-testid="event-price">
              {formatPrice(event.price, event.currency, locale)}
            </Text>
            <SeatsText event={event} />
          </Group>
        </Stack>
        <Stack gap="xs" mt="xs">
          {action ?? <EventBuyButton event={event} fullWidth />}
          {onOpen ? (
            <Button variant="default" onClick={onOpen} fullWidth>
              {t('details')}
            </Button>
          ) : null}
        </Stack>
      </Stack>
    </Card>
  );
}
