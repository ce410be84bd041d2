import { ActionIcon, Group, Stack, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/numbers';
import type { CartEntry } from '../model';
import { MAX_TICKETS_PER_ORDER } from '../model';
import { useSetQuantity } from '../mutations';

/** The most tickets of a tier one order may hold: the cap, and no more than are left
 * (`seatsLeft` null: no count of its own). */
export const mostTickets = (seatsLeft: number | null | undefined): number =>
  Math.min(MAX_TICKETS_PER_ORDER, typeof seatsLeft === 'number' ? seatsLeft : MAX_TICKETS_PER_ORDER);

/** How many tickets: − and +, from one to `most`, the count in the reader's digits; each
 * button a thumb's size (44 px), as every tap target on a phone. At `most`, a line says why
 * there are no more (the per-order cap, or the seats left). Test ids start with `testId`. */
export function TicketCountStepper({
  value,
  most,
  onChange,
  disabled = false,
  testId,
}: {
  value: number;
  most: number;
  onChange: (to: number) => void;
  disabled?: boolean;
  testId: string;
}): ReactNode {
  const { t, i18n } = useTranslation();
  const limit = value >= most ? (most < MAX_TICKETS_PER_ORDER ? t('cart.limitLeft', { count: most }) : t('cart.limitOrder', { count: most })) : null;
  return (
    <Stack gap={2} align="flex-start">
      <Group gap={4} wrap="nowrap" data-testid={`${testId}-stepper`}>
        <ActionIcon
          variant="default"
          size={44}
          aria-label={t('cart.fewer')}
          disabled={value <= 1 || disabled}
          onClick={() => {
            onChange(value - 1);
          }}
          data-testid={`${testId}-minus`}
        >
          <IconMinus size={16} />
        </ActionIcon>
        <Text fw={600} miw={28} ta="center" aria-live="polite" aria-label={t('cart.quantity')} data-testid={testId}>
          {formatNumber(value, i18n.language)}
        </Text>
        <ActionIcon
          variant="default"
          size={44}
          aria-label={t('cart.more')}
          disabled={value >= most || disabled}
          onClick={() => {
            onChange(value + 1);
          }}
          data-testid={`${testId}-plus`}
        >
          <IconPlus size={16} />
        </ActionIcon>
      </Group>
      {limit ? (
        <Text size="xs" c="dimmed" aria-live="polite" data-testid={`${testId}-limit`}>
          {limit}
        </Text>
      ) : null}
    </Stack>
  );
}

/** How many tickets of a concert's cart line, changed on the server at each press; the
 * server refuses anything else with the reason. */
export function QuantityStepper({ entry }: { entry: CartEntry }): ReactNode {
  const setQuantity = useSetQuantity();
  const event = entry.event;
  if (!event) return null;
  return (
    <TicketCountStepper
      value={entry.quantity}
      most={mostTickets(entry.tier?.seatsLeft)}
      disabled={setQuantity.isPending}
      onChange={(to) => {
        setQuantity.mutate({ eventId: event.id, quantity: to });
      }}
      testId="cart-quantity"
    />
  );
}
