import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import { cartQueryOptions } from '../../cart/queries';
import type { PricingPlan } from '../model';
import { useAddPassToCart } from '../mutations';
import { plansQueryOptions } from '../queries';

export function PassBuyButton({ plan }: { plan: PricingPlan }): ReactNode {
  const { t } = useTranslation('payments');
  const cart = useQuery(cartQueryOptions());
  const add = useAddPassToCart(plan);
  if ((cart.data ?? []).some((entry) => entry.plan?.id === plan.id)) {
    return (
      <Button component={Link} to="/cart" variant="light">
        {t('plans.inCart')}
      </Button>
    );
  }
  return (
    <Button
      variant="light"
      loading={add.isPending}
      onClick={() => {
        add.mutate();
      }}
      data-testid="pass-buy"
    >
      {t('plans.addToCart')}
    </Button>
  );
}

export function PlanSummary({ plan }: { plan: PricingPlan }): ReactNode {
  const { t, i18n } = useTranslation('payments');
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text fw={700}>{plan.name}</Text>
        {plan.active ? null : <Badge color="gray">{t('plans.retired')}</Badge>}
      </Group>
      <Text size="sm" c="dimmed">
        {plan.description}
      </Text>
      <Text fw={700}>
        {/* Each figure isolated: in Persian the price and the days would read as one number. */}
        <bdi>{formatPrice(plan.price, plan.currency, localeOf(i18n.language))}</bdi> · <bdi>{t('plans.days', { count: plan.days })}</bdi>
      </Text>
    </Stack>
  );
}

/** All-access passes a fan can add to the cart (shown under the events list). */
export function PassOffers(): ReactNode {
  const { t } = useTranslation('payments');
  const { data } = useQuery(plansQueryOptions());
  const plans = (data ?? []).filter((plan) => plan.active);
  if (plans.length === 0) return null;
  return (
    <Stack mt="xl" gap="sm" data-testid="pass-offers">
      <Title order={3}>{t('plans.offerTitle')}</Title>
      <Text c="dimmed">{t('plans.offerText')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {plans.map((plan) => (
          <Card key={plan.id} withBorder>
            <Stack justify="space-between" h="100%">
              <PlanSummary plan={plan} />
              <PassBuyButton plan={plan} />
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
