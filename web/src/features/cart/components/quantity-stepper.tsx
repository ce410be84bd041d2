import { ActionIcon, Group, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import type { CartEntry } from '../model';
import { MAX_TICKETS_PER_ORDER } from '../model';
import { useSetQuantity } from '../mutations';

/** How many tickets of a concert's cart line: − and + (one to the cap, and no more than the
 * tier has left); the server refuses anything else with the reason. Each button is a
 * thumb's size (44 px), as every tap target on a phone. */
export function QuantityStepper({ entry }: { entry: CartEntry }): ReactNode {
  const { t, i18n } = useTranslation();
  const setQuantity = useSetQuantity();
  const event = entry.event;
  if (!event) return null;
  const quantity = entry.quantity;
  const left = entry.tier?.seatsLeft;
  const most = Math.min(MAX_TICKETS_PER_ORDER, typeof left === 'number' ? left : MAX_TICKETS_PER_ORDER);
  const change = (to: number): void => {
    setQuantity.mutate({ eventId: event.id, quantity: to });
  };
  return (
    <Group gap={4} wrap="nowrap" data-testid="cart-quantity-stepper">
      <ActionIcon
        variant="default"
        size={44}
        aria-label={t('cart.fewer')}
        disabled={quantity <= 1 || setQuantity.isPending}
        onClick={() => {
          change(quantity - 1);
        }}
        data-testid="cart-quantity-minus"
      >
        <IconMinus size={16} />
      </ActionIcon>
      <Text fw={600} miw={28} ta="center" aria-live="polite" aria-label={t('cart.quantity')} data-testid="cart-quantity">
        {new Intl.NumberFormat(localeOf(i18n.language)).format(quantity)}
      </Text>
      <ActionIcon
        variant="default"
        size={44}
        aria-label={t('cart.more')}
        disabled={quantity >= most || setQuantity.isPending}
        onClick={() => {
          change(quantity + 1);
        }}
        data-testid="cart-quantity-plus"
      >
        <IconPlus size={16} />
      </ActionIcon>
    </Group>
  );
}
