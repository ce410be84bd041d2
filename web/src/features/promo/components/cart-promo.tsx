import { Alert, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconDiscount, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { formatPrice } from '../../cart/model';
import { useCartPromoActions } from '../mutations';
import { cartPromoQueryOptions } from '../queries';

/**
 * The cart's promo code: a field to enter one (any case) and apply it, then the code with
 * what it takes off and the new total, or, for a code that unlocks tiers, a word that the
 * concert page lists them now; a button takes it out. The server's refusals (unknown, used
 * up, expired, not for this cart) show under the field in the reader's language.
 */
export function CartPromoField({ empty }: { empty: boolean }): ReactNode {
  const { t, i18n } = useTranslation('promo');
  const locale = localeOf(i18n.language);
  const promo = useQuery(cartPromoQueryOptions());
  const { enter, remove } = useCartPromoActions();
  const [typed, setTyped] = useState('');
  const applied = promo.data ?? null;
  const money = (minor: number): string => formatPrice(minor, applied?.currency ?? 'EUR', locale);

  if (applied) {
    return (
      <Card withBorder padding="sm" data-testid="cart-promo">
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <IconDiscount size={18} style={{ flexShrink: 0 }} />
              <Text fw={600} dir="ltr" data-testid="cart-promo-code" style={{ overflowWrap: 'anywhere' }}>
                {applied.code}
              </Text>
            </Group>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconX size={14} />}
              loading={remove.isPending}
              onClick={() => {
                remove.mutate();
              }}
              data-testid="cart-promo-remove"
            >
              {t('cart.remove')}
            </Button>
          </Group>
          {applied.kind === 'unlock' ? (
            <Text size="sm" c="dimmed" data-testid="cart-promo-unlock">
              {t('cart.unlocks')}
            </Text>
          ) : empty ? null : (
            <>
              <Group justify="space-between" gap="xs">
                <Text size="sm" c="dimmed">
                  {t('cart.subtotal')}
                </Text>
                <Text size="sm">{money(applied.subtotal)}</Text>
              </Group>
              <Group justify="space-between" gap="xs">
                <Text size="sm" c="green.8">
                  {t('cart.discount', { code: applied.code })}
                </Text>
                <Text size="sm" c="green.8" data-testid="cart-promo-discount">
                  −{money(applied.discount)}
                </Text>
              </Group>
              <Group justify="space-between" gap="xs">
                <Text fw={700}>{t('cart.newTotal')}</Text>
                <Text fw={800} size="lg" data-testid="cart-promo-total">
                  {money(applied.total)}
                </Text>
              </Group>
            </>
          )}
        </Stack>
      </Card>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (typed.trim()) enter.mutate(typed.trim(), { onSuccess: () => { setTyped(''); } });
      }}
      data-testid="cart-promo-form"
    >
      <Stack gap={6}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1, minWidth: 0 }}
            label={t('cart.label')}
            placeholder={t('cart.placeholder')}
            dir="ltr"
            autoCapitalize="characters"
            autoComplete="off"
            value={typed}
            onChange={(event) => {
              enter.reset();
              setTyped(event.currentTarget.value);
            }}
            data-testid="cart-promo-input"
          />
          <Button type="submit" variant="default" loading={enter.isPending} disabled={!typed.trim()} data-testid="cart-promo-apply">
            {t('cart.apply')}
          </Button>
        </Group>
        {enter.error ? (
          <Alert color="red" p="xs" data-testid="cart-promo-error">
            {errorText(enter.error, t)}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
