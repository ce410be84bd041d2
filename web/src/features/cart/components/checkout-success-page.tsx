import { Badge, Button, Card, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { localeOf } from '../../../i18n/languages';
import { ORDER_STATUS_COLOR } from '../../payments/model';
import { eventKeys } from '../../events/queries';
import { ListenNowIfOpen } from '../../events/components/concert-state';
import { orderQueryOptions } from '../../payments/queries';
import { formatPrice } from '../model';
import { cartKeys } from '../queries';


/** /checkout-success?order=: what was bought (GET /orders/{id}), with its status. */
export function CheckoutSuccessPage(): ReactNode {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const [params] = useSearchParams();
  const orderId = params.get('order');
  const queryClient = useQueryClient();
  const order = useQuery({
    ...orderQueryOptions(orderId ?? ''),
    enabled: orderId !== null,
    // A Stripe webhook may land a moment after the fan is back: look again while pending.
    refetchInterval: (query) => (query.state.data?.status === 'pending' || query.state.data?.status === 'paid' ? 2000 : false),
  });
  const status = order.data?.status;
  const concerts = order.data?.items.filter((item) => item.itemKind === 'event') ?? [];
  useEffect(() => {
    if (status === 'fulfilled') {
      void queryClient.invalidateQueries({ queryKey: cartKeys.list });
      void queryClient.invalidateQueries({ queryKey: eventKeys.all });
    }
  }, [status, queryClient]);

  const myEvents = (
    <Button component={Link} to="/my-events">
      {t('nav.myEvents')}
    </Button>
  );
  if (!orderId) {
    return (
      <>
        <PageHeader title={t('nav.checkoutSuccess')} />
        <EmptyState title={t('cart.successEmptyTitle')} description={t('cart.successEmptyText')} action={myEvents} />
      </>
    );
  }
  return (
    <>
      <PageHeader title={t('nav.checkoutSuccess')} />
      {order.isPending ? (
        <Skeleton h={200} />
      ) : order.isError ? (
        <Text c="red">{t('cart.orderFailed')}</Text>
      ) : (
        <Card withBorder padding="lg" data-testid="order-summary">
          <Stack>
            <Group justify="space-between">
              <Text fw={700}>
                {/* The number is an id: read left to right in every language, as the receipt's. */}
                <Trans t={t} i18nKey="cart.orderNumber" values={{ id: order.data.id.slice(0, 8) }} components={{ id: <span dir="ltr" style={{ display: 'inline-block' }} /> }} />
              </Text>
              <Badge color={ORDER_STATUS_COLOR[order.data.status]} data-testid="order-status">
                {t(`cart.status.${order.data.status}`)}
              </Badge>
            </Group>
            <Text c="dimmed">{t(`cart.statusText.${order.data.status}`)}</Text>
            {order.data.failure ? <Text c="red">{order.data.failure}</Text> : null}
            <Table>
              <Table.Tbody>
                {order.data.items.map((item) => (
                  <Table.Tr key={`${item.itemKind}-${item.itemId}`}>
                    <Table.Td>{item.title}</Table.Td>
                    <Table.Td>{item.itemKind === 'pass' ? t('cart.passKind') : t('cart.ticketKind')}</Table.Td>
                    <Table.Td ta="end">{formatPrice(item.price, order.data.currency, locale)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td fw={700}>{t('cart.total')}</Table.Td>
                  <Table.Td />
                  <Table.Td ta="end" fw={700} data-testid="order-total">
                    {formatPrice(order.data.total, order.data.currency, locale)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {/* Every concert of the order that plays now, each straight to its stage. */}
            <Group justify="flex-end" data-testid="order-listen">
              {order.data.status === 'fulfilled'
                ? concerts.map((item) => <ListenNowIfOpen key={item.itemId} id={item.itemId} named={concerts.length > 1} />)
                : null}
              {myEvents}
            </Group>
          </Stack>
        </Card>
      )}
    </>
  );
}
