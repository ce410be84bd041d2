import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconShoppingCartPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MoneyInput } from '../../../components/money-input';
import { localAmountText, parseAmount } from '../../../i18n/numbers';
import type { Schema } from '../../../lib/api-types';
import { useAuthStatus } from '../../auth/session';
import { currencyDigits, formatPrice } from '../../cart/model';
import { mostTickets, TicketCountStepper } from '../../cart/components/quantity-stepper';
import { cartQueryOptions } from '../../cart/queries';
import { useLocale } from '../../events/components/event-parts';
import type { EncoreEvent } from '../../events/model';
import { useAddEventToCart } from '../../events/mutations';

type Tier = Schema<'Tier'>;

/** A signed-in fan's choice of one tier: in the cart already, not on sale (why), or add it,
 * as many tickets as the stepper says (one to start; a pay-what-you-want tier at the amount
 * the fan names, the suggested price to start). */
function TierBuyButton({ event, tier }: { event: EncoreEvent; tier: Tier }): ReactNode {
  const { t } = useTranslation('events');
  const { t: tc } = useTranslation('concert');
  const locale = useLocale();
  const cart = useQuery(cartQueryOptions());
  const add = useAddEventToCart(event, tier.id);
  const digits = currencyDigits(tier.currency);
  const [amount, setAmount] = useState(localAmountText(tier.price, digits, locale));
  const [quantity, setQuantity] = useState(1);
  const inCart = (cart.data ?? []).some((entry) => entry.event?.id === event.id && entry.tier?.id === tier.id);
  if (inCart) {
    return (
      <Button component={Link} to="/cart" variant="light" size="xs" data-testid="tier-in-cart">
        {t('inCart')}
      </Button>
    );
  }
  if (!tier.onSale) return null;
  const pwyw = tier.minimumPrice !== null;
  // The amount named, in minor units; null while it is not a number.
  const named = parseAmount(amount, digits);
  const tooLow = pwyw && (named === null || named < (tier.minimumPrice ?? 0));
  const choice = (
    <Group gap="xs" wrap="wrap" justify="flex-end" align="flex-start">
      <TicketCountStepper value={quantity} most={mostTickets(tier.seatsLeft)} onChange={setQuantity} disabled={add.isPending} testId="tier-quantity" />
      <Button
        h={44}
        leftSection={<IconShoppingCartPlus size={14} />}
        loading={add.isPending}
        disabled={tooLow}
        onClick={() => {
          add.mutate({ amount: pwyw && named !== null ? named : undefined, quantity });
        }}
        data-testid="tier-buy"
      >
        {t('addToCart')}
      </Button>
    </Group>
  );
  if (!pwyw) return choice;
  return (
    <Stack gap={4} align="stretch" style={{ maxWidth: '14rem' }}>
      <MoneyInput
        size="xs"
        label={tc('page.yourAmount', { currency: tier.currency })}
        description={tc('page.atLeast', {
          minimum: formatPrice(tier.minimumPrice ?? 0, tier.currency, locale),
          suggested: formatPrice(tier.price, tier.currency, locale),
        })}
        value={amount}
        onChange={setAmount}
        error={tooLow}
        data-testid="tier-amount"
      />
      {choice}
    </Stack>
  );
}

/** Whether the concert shows its tiers as cards, each with its own button: when there is a
 * choice. One fixed-price tier is the concert's own price and button; a pay-what-you-want
 * one needs its amount field. */
export function hasTierCards(event: EncoreEvent): boolean {
  const tiers = event.tiers ?? [];
  return tiers.length >= 2 || tiers.some((tier) => tier.minimumPrice !== null);
}

/** The concert's tiers the public may see, each with its price and whether it sells now;
 * shown when there is a choice (see `hasTierCards`). */
export function ConcertTiers({ event }: { event: EncoreEvent }): ReactNode {
  const { t } = useTranslation('concert');
  const { t: te } = useTranslation('events');
  const locale = useLocale();
  const { hasToken } = useAuthStatus();
  const tiers = event.tiers ?? [];
  if (!hasTierCards(event)) return null;
  return (
    <Stack gap="xs" data-testid="concert-tiers">
      <Title order={4}>{t('page.tiers')}</Title>
      {tiers.map((tier) => (
        <Card withBorder padding="sm" key={tier.id} data-testid="concert-tier">
          {/* Side by side where there is room; on a phone the price and the button go under
              the name and description, which keep the card's width. */}
          <Group justify="space-between" wrap="wrap" align="flex-start" gap="xs">
            <Stack gap={2} style={{ flex: '1 1 14rem', minWidth: 0 }}>
              <Text fw={600} dir="auto">
                {tier.name}
              </Text>
              {tier.description ? (
                <Text size="sm" c="dimmed" dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
                  {tier.description}
                </Text>
              ) : null}
            </Stack>
            <Stack gap={4} align="flex-end" style={{ marginInlineStart: 'auto' }}>
              <Text fw={700} data-testid="concert-tier-price">
                {tier.minimumPrice === null
                  ? formatPrice(tier.price, tier.currency, locale)
                  : t('page.pwywFrom', { minimum: formatPrice(tier.minimumPrice, tier.currency, locale) })}
              </Text>
              {tier.soldOut ? (
                <Badge color="red" variant="light">
                  {te('soldOut')}
                </Badge>
              ) : tier.notOnSale ? (
                <Text size="xs" c="dimmed">
                  {tier.notOnSale}
                </Text>
              ) : null}
              {hasToken && !event.owned ? <TierBuyButton event={event} tier={tier} /> : null}
            </Stack>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
