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
import { formatDate } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { PHONE_QUERY } from '../../../lib/constants';
import { formatPrice } from '../../cart/model';
import type { Order } from '../model';
import { myOrdersQueryOptions } from '../queries';
import { OrderCells } from './order-cells';
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

/** A phone has no room for five columns: one card per order, nothing cut. */
function MyOrderCards({ orders, locale }: { orders: readonly Order[]; locale: string }): ReactNode {
  return (
    <Stack gap="sm" data-testid="my-orders">
      {orders.map((order) => (
        <Card key={order.id} withBorder padding="sm" data-testid="my-order-card">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" c="dimmed">
              {formatDate(order.createdAt, locale, { dateStyle: 'medium' })}
            </Text>
            <Text fw={700}>{formatPrice(order.total, order.currency, locale)}</Text>
          </Group>
          <Text dir="auto" my={6}>
            {order.items.map((item) => item.title).join(', ')}
          </Text>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <OrderStatusBadge status={order.status} />
            <ReceiptButton orderId={order.id} />
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
            <Table.Tr key={order.id}>
              <Table.Td>{formatDate(order.createdAt, locale, { dateStyle: 'medium' })}</Table.Td>
              <OrderCells order={order} locale={locale} />
              <Table.Td ta="end">
                <ReceiptButton orderId={order.id} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The reader's own orders, newest first; each opens its receipt. */
export function MyOrdersPage(): ReactNode {
  const { t, i18n } = useTranslation('orders');
  const locale = localeOf(i18n.language);
  const [page, setPage] = useState(1);
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const orders = useQuery(myOrdersQueryOptions(page, PAGE_SIZE));
  return (
    <>
      <PageHeader title={t('mine.title')} description={t('mine.intro')} />
      <PagedQuery
        query={orders}
        page={page}
        onPage={setPage}
        failed={t('mine.loadFailed')}
        empty={
          <Card withBorder>
            <Group justify="space-between">
              <EmptyState title={t('mine.empty')} />
              <Button component={Link} to="/events" variant="light">
                {t('common:cart.browse')}
              </Button>
            </Group>
          </Card>
        }
      >
        {(data) => (phone ? <MyOrderCards orders={data.items} locale={locale} /> : <MyOrdersTable orders={data.items} locale={locale} />)}
      </PagedQuery>
    </>
  );
}
