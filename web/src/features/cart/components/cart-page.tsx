import { ActionIcon, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconExternalLink, IconTicket, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { ArtistLink } from '../../events/components/event-parts';
import { appPlayer } from '../../player/player';
import { CartPromoField } from '../../promo/components/cart-promo';
import { cartPromoQueryOptions } from '../../promo/queries';
import { paymentWindow } from '../checkout';
import type { CartEntry } from '../model';
import { cartTotal, entryCurrency, entryLineTotal, entryPrice, formatPrice } from '../model';
import { useClearCart, usePayNow, useRemoveFromCart } from '../mutations';
import { cartQueryOptions } from '../queries';
import { QuantityStepper } from './quantity-stepper';

function entryKey(entry: CartEntry, index: number): string {
  return entry.event?.id ?? entry.plan?.id ?? String(index);
}

/** The cart: what the signed-in user has picked, with the total (a missing price counts 0). */
export function CartPage(): ReactNode {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const cart = useQuery(cartQueryOptions());
  const remove = useRemoveFromCart();
  const clear = useClearCart();
  const payHere = usePayNow();
  const entries = cart.data ?? [];
  // A code taking money off shows the total it makes in place of the plain one.
  const promo = useQuery(cartPromoQueryOptions());
  const discounted = promo.data != null && promo.data.kind !== 'unlock';

  return (
    <>
      <PageHeader
        title={t('cart.title')}
        actions={
          entries.length > 0 ? (
            <Button variant="default" color="red" loading={clear.isPending} onClick={() => { clear.mutate(); }}>
              {t('cart.clear')}
            </Button>
          ) : null
        }
      />
      {cart.isPending ? (
        <Skeleton h={120} />
      ) : cart.isError ? (
        <Text c="red">{t('cart.loadFailed')}</Text>
      ) : entries.length === 0 ? (
        <Stack gap="md">
          <EmptyState
            title={t('cart.emptyTitle')}
            description={t('cart.emptyText')}
            action={
              <Button component={Link} to="/events">
                {t('cart.browse')}
              </Button>
            }
          />
          {/* A code that unlocks hidden tiers may come first: the concert page then lists them. */}
          <CartPromoField empty />
        </Stack>
      ) : (
        <Stack gap="sm" data-testid="cart-entries">
          {entries.map((entry, index) => (
            <Card withBorder key={entryKey(entry, index)} padding="md">
              <Group justify="space-between" wrap="nowrap">
                {/* The title's column takes the room the price leaves: under a phone's stepper
                    the price per ticket goes to a line of its own, the title keeps its width. */}
                <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
                  {/* Its size kept beside a long title (a phone), not squeezed to a dot. */}
                  <IconTicket size={22} style={{ flexShrink: 0 }} />
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600}>{entry.event?.title ?? entry.plan?.name ?? t('cart.pass')}</Text>
                    {entry.event ? (
                      <>
                        <ArtistLink event={entry.event} testId="cart-artist" />
                        {entry.tier ? (
                          <Text size="sm" dir="auto" data-testid="cart-tier">
                            {entry.tier.name}
                          </Text>
                        ) : null}
                        <Text size="sm" c="dimmed">
                          {formatDateTime(entry.event.startsAt, locale, { dateStyle: 'medium', timeStyle: 'short' })}
                        </Text>
                        <Group gap="xs" mt={4}>
                          <QuantityStepper entry={entry} />
                          {entry.quantity > 1 ? (
                            <Text size="sm" c="dimmed" data-testid="cart-each">
                              {t('cart.each', { price: formatPrice(entryPrice(entry), entryCurrency(entry), locale) })}
                            </Text>
                          ) : null}
                        </Group>
                      </>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {entry.kind === 'pass' || entry.plan ? t('cart.passKind') : t('cart.pass')}
                      </Text>
                    )}
                  </div>
                </Group>
                <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Text fw={600} data-testid="cart-line-total">
                    {formatPrice(entryLineTotal(entry), entryCurrency(entry), locale)}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('cart.remove')}
                    loading={remove.isPending && remove.variables === entry}
                    onClick={() => {
                      remove.mutate(entry);
                    }}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
              </Group>
            </Card>
          ))}
          <CartPromoField empty={false} />
          {discounted ? null : (
            <Group justify="flex-end" gap="xs">
              <Text c="dimmed">{t('cart.total')}</Text>
              <Text fw={800} size="lg" data-testid="cart-total">
                {formatPrice(cartTotal(entries), entryCurrency(entries[0] ?? { event: null }), locale)}
              </Text>
            </Group>
          )}
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to="/checkout" variant="default" leftSection={<IconExternalLink size={16} />} data-testid="checkout-new-window">
              {t('cart.checkoutNewWindow')}
            </Button>
            <Button
              leftSection={<IconCreditCard size={16} />}
              loading={payHere.isPending}
              onClick={() => {
                // While a concert plays here, the payment opens beside it: the show goes on.
                payHere.mutate(paymentWindow(appPlayer().getSnapshot().concert !== null));
              }}
              data-testid="pay-now"
            >
              {t('cart.payNow')}
            </Button>
          </Group>
        </Stack>
      )}
    </>
  );
}
