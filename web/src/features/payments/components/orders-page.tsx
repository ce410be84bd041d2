import { Badge, Button, Card, Group, Modal, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import { ORDER_STATUS_COLOR } from '../model';
import { useRefundOrder } from '../mutations';
import { orderQueryOptions, ordersQueryOptions } from '../queries';
import { Pager } from '../../../app/components/pager';

const PAGE_SIZE = 20;

/** Every order (staff), newest first; each leads to its page. */
export function OrdersPage(): ReactNode {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n.language);
  const [page, setPage] = useState(1);
  const orders = useQuery(ordersQueryOptions(page, PAGE_SIZE));
  const pages = orders.data ? Math.max(1, Math.ceil(orders.data.total / orders.data.pageSize)) : 1;
  return (
    <>
      <PageHeader title={t('orders.title')} description={t('orders.intro')} />
      {orders.isPending ? (
        <Skeleton h={200} />
      ) : orders.isError ? (
        <Text c="red">{t('orders.loadFailed')}</Text>
      ) : orders.data.items.length === 0 ? (
        <EmptyState title={t('common:empty.itemsNotFound')} />
      ) : (
        <Stack>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover data-testid="orders-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('orders.order')}</Table.Th>
                  <Table.Th>{t('orders.date')}</Table.Th>
                  <Table.Th>{t('orders.items')}</Table.Th>
                  <Table.Th>{t('orders.total')}</Table.Th>
                  <Table.Th>{t('orders.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {orders.data.items.map((order) => (
                  <Table.Tr key={order.id}>
                    <Table.Td>
                      <Link to={`/payments/orders/${order.id}`}>{order.id.slice(0, 8)}</Link>
                    </Table.Td>
                    <Table.Td>{new Date(order.createdAt).toLocaleString(locale)}</Table.Td>
                    <Table.Td>{order.items.map((item) => item.title).join(', ')}</Table.Td>
                    <Table.Td>{formatPrice(order.total, order.currency, locale)}</Table.Td>
                    <Table.Td>
                      <Badge color={ORDER_STATUS_COLOR[order.status]} variant="light">
                        {t(`common:cart.status.${order.status}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager pages={pages} page={page} onChange={setPage} />
        </Stack>
      )}
    </>
  );
}

/** One order, with a refund for staff (access ends). */
export function OrderPage(): ReactNode {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n.language);
  const { orderId = '' } = useParams();
  const order = useQuery(orderQueryOptions(orderId));
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const refund = useRefundOrder(orderId, () => {
    setConfirming(false);
  });
  if (order.isPending) return <Skeleton h={240} />;
  if (order.isError) return <Text c="red">{t('orders.loadOneFailed')}</Text>;
  const data = order.data;
  const refundable = data.status === 'fulfilled' || data.status === 'paid';
  return (
    <>
      <PageHeader
        title={t('orders.one', { id: data.id.slice(0, 8) })}
        actions={
          refundable ? (
            <Button color="orange" onClick={() => { setConfirming(true); }} data-testid="order-refund">
              {t('orders.refund')}
            </Button>
          ) : null
        }
      />
      <Card withBorder data-testid="order-page">
        <Stack>
          <Group justify="space-between">
            <Text c="dimmed">{new Date(data.createdAt).toLocaleString(locale)}</Text>
            <Badge color={ORDER_STATUS_COLOR[data.status]} data-testid="order-status">
              {t(`common:cart.status.${data.status}`)}
            </Badge>
          </Group>
          <Text size="sm">{t('orders.provider', { provider: data.provider })}</Text>
          {data.failure ? <Text c="red">{data.failure}</Text> : null}
          {data.refundedAt ? <Text size="sm">{t('orders.refundedAt', { date: new Date(data.refundedAt).toLocaleString(locale) })}</Text> : null}
          <Table>
            <Table.Tbody>
              {data.items.map((item) => (
                <Table.Tr key={`${item.itemKind}-${item.itemId}`}>
                  <Table.Td>{item.title}</Table.Td>
                  <Table.Td ta="end">{formatPrice(item.price, data.currency, locale)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={700}>{t('orders.total')}</Table.Td>
                <Table.Td fw={700} ta="end">
                  {formatPrice(data.total, data.currency, locale)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Stack>
      </Card>
      <Modal opened={confirming} onClose={() => { setConfirming(false); }} title={t('orders.refundTitle')}>
        <Stack>
          <Text>{t('orders.refundText')}</Text>
          <TextInput label={t('orders.reason')} value={reason} onChange={(e) => { setReason(e.currentTarget.value); }} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => { setConfirming(false); }}>
              {t('plans.cancel')}
            </Button>
            <Button color="orange" loading={refund.isPending} onClick={() => { refund.mutate(reason); }} data-testid="confirm-refund">
              {t('orders.refund')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
