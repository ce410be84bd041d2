import { Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { PagedQuery } from '../../../components/paged-query';
import { formatDate, formatTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { PHONE_QUERY } from '../../../lib/constants';
import { formatPrice } from '../../cart/model';
import { MyTickets } from '../../gifts/components/my-tickets';
import { stateInWords, wasPaid } from '../model';
import type { Order } from '../model';
import { OrderSubject } from './order-cells';
import { myOrdersQueryOptions } from '../queries';
import { OrderStatusBadge } from './order-status-badge';

const PAGE_SIZE = 10;

function ReceiptButton({ orderId }: { orderId: string }): ReactNode {
  const { t } = useTranslation('orders');
  return (
    <Button component={Link} to={`/receipts/${orderId}`} variant="subtle" size="xs" leftSection={<IconReceipt size={14} />} data-testid="open-receipt">
      {t('receipt.open')}
    </Button>
  );
}

/** What became of the order, in words: paid (or refunded) on a day, or never charged and why. */
function OrderState({ order, locale }: { order: Order; locale: string }): ReactNode {
  const { t } = useTranslation('orders');
  const day = (iso: string | null): string => formatDate(iso ?? order.createdAt, locale, { dateStyle: 'medium' });
  const words = stateInWords(order.status);
  const text =
    words === 'paid'
      ? t('mine.state.paid', { date: day(order.paidAt) })
      : words === 'refunded'
        ? t('mine.state.refunded', { date: day(order.refundedAt) })
        : words === 'pending'
          ? t('mine.state.pending', { time: formatTime(order.expiresAt, locale) })
          : t(`mine.state.${words}`);
  return (
    <Stack gap={4} align="flex-start">
      <OrderStatusBadge status={order.status} testId="my-order-status" />
      <Text size="xs" c="dimmed" data-testid="my-order-state">
        {text}
      </Text>
    </Stack>
  );
}

/** The order's total: money taken in full, an amount never charged dimmed (the words beside it say so);
 * under it the promo code it carried and what that took off. */
function OrderTotal({ order, locale }: { order: Order; locale: string }): ReactNode {
  const { t } = useTranslation('promo');
  return (
    <div>
      <Text fw={wasPaid(order) ? 700 : 400} c={wasPaid(order) ? undefined : 'dimmed'} size="sm" data-testid="my-order-total">
        {formatPrice(order.total, order.currency, locale)}
      </Text>
      {order.promoCode ? (
        <Text size="xs" c="dimmed" data-testid="my-order-promo">
          <span dir="ltr">{order.promoCode}</span>
          {order.discount > 0 ? ` ${t('receipt.off', { amount: formatPrice(order.discount, order.currency, locale) })}` : ''}
        </Text>
      ) : null}
    </div>
  );
}

/** A phone has no room for five columns: one card per order, nothing cut. */
function MyOrderCards({ orders, locale }: { orders: readonly Order[]; locale: string }): ReactNode {
  return (
    <Stack gap="sm" data-testid="my-orders">
      {orders.map((order) => (
        <Card key={order.id} withBorder padding="sm" data-testid="my-order" data-status={order.status}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" c="dimmed">
              {formatDate(order.createdAt, locale, { dateStyle: 'medium' })}
            </Text>
            <OrderTotal order={order} locale={locale} />
          </Group>
          <Text dir="auto" my={6} data-testid="my-order-subject">
            <OrderSubject order={order} />
          </Text>
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-end">
            <OrderState order={order} locale={locale} />
            {wasPaid(order) ? <ReceiptButton orderId={order.id} /> : null}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function MyOrdersTable({ orders, locale }: { orders: readonly Order[]; locale: string }): ReactNode {
  const { t } = useTranslation('orders');
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table highlightOnHover data-testid="my-orders">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('mine.date')}</Table.Th>
            <Table.Th>{t('mine.items')}</Table.Th>
            <Table.Th>{t('mine.total')}</Table.Th>
            <Table.Th>{t('mine.status')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((order) => (
            <Table.Tr key={order.id} data-testid="my-order" data-status={order.status}>
              <Table.Td>{formatDate(order.createdAt, locale, { dateStyle: 'medium' })}</Table.Td>
              <Table.Td data-testid="my-order-subject">
                <OrderSubject order={order} />
              </Table.Td>
              <Table.Td>
                <OrderTotal order={order} locale={locale} />
              </Table.Td>
              <Table.Td>
                <OrderState order={order} locale={locale} />
              </Table.Td>
              <Table.Td ta="end">{wasPaid(order) ? <ReceiptButton orderId={order.id} /> : null}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The reader's own orders, newest first, each in its true state; a paid one opens its receipt. */
export function MyOrdersPage(): ReactNode {
  const { t, i18n } = useTranslation('orders');
  const locale = localeOf(i18n.language);
  const [page, setPage] = useState(1);
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const orders = useQuery(myOrdersQueryOptions(page, PAGE_SIZE));
  return (
    <>
      <PageHeader title={t('mine.title')} description={t('mine.intro')} />
      {/* The tickets themselves, to give or pass on, above the orders that bought them. */}
      <MyTickets />
      <PagedQuery
        query={orders}
        page={page}
        onPage={setPage}
        failed={t('mine.loadFailed')}
        empty={
          // One card, its words and its way to the concerts in the middle (as My events').
          <EmptyState
            title={t('mine.empty')}
            action={
              <Button component={Link} to="/events">
                {t('common:cart.browse')}
              </Button>
            }
          />
        }
      >
        {(data) => (phone ? <MyOrderCards orders={data.items} locale={locale} /> : <MyOrdersTable orders={data.items} locale={locale} />)}
      </PagedQuery>
    </>
  );
}
