import { Anchor, Badge, Button, Card, Group, Select, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconReceipt, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import { ORDER_STATUSES, ORDER_STATUS_COLOR, wasPaid } from '../model';
import type { Order, OrderFilter, OrderStatus } from '../model';
import { exportOrders } from '../api';
import { saveFile } from '../download';
import { useRefundOrder } from '../mutations';
import { orderQueryOptions, ordersQueryOptions } from '../queries';
import { PagedQuery } from '../../../components/paged-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { OrderCells, OrderSubject } from './order-cells';
import { OrderStatusBadge } from './order-status-badge';
import { RowCard, RowCards, useRowCards } from '../../../components/row-cards';
import { formatDateTime } from '../../../i18n/dates';

const PAGE_SIZE = 20;

/** An order's short id, opening its page. */
function OrderLink({ order }: { order: Order }): ReactNode {
  return (
    <Anchor component={Link} to={`/payments/orders/${order.id}`} className="encore-link-tap" dir="ltr" style={{ whiteSpace: 'nowrap' }}>
      {order.id.slice(0, 8)}
    </Anchor>
  );
}

/** Who bought: their name, and their e-mail beneath it (or the e-mail alone). */
function Buyer({ order }: { order: Order }): ReactNode {
  return (
    <>
      <Text size="sm">{order.buyer.name || order.buyer.email}</Text>
      {order.buyer.name ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {order.buyer.email}
        </Text>
      ) : null}
    </>
  );
}


/** Every order (staff), newest first, with its buyer; searched and filtered on the server,
 * and exported whole as CSV by the server with the same filter. */
export function OrdersPage(): ReactNode {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n.language);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<OrderStatus | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const filter: OrderFilter = { search: debounced || undefined, status: status ?? undefined };
  const orders = useQuery(ordersQueryOptions(page, PAGE_SIZE, filter));
  const cards = useRowCards();
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const download = (): void => {
    setExporting(true);
    setExportFailed(false);
    exportOrders(filter)
      .then((blob) => { saveFile(blob, `encore-orders-${new Date().toISOString().slice(0, 10)}.csv`); })
      .catch(() => { setExportFailed(true); })
      .finally(() => { setExporting(false); });
  };
  return (
    <>
      <PageHeader
        title={t('orders.title')}
        description={t('orders.intro')}
        actions={
          <Button leftSection={<IconDownload size={16} />} variant="default" loading={exporting} onClick={download} data-testid="orders-export">
            {t('orders:admin.export')}
          </Button>
        }
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label={t('orders:admin.search')}
          placeholder={t('orders:admin.searchHint')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => { setSearch(e.currentTarget.value); setPage(1); }}
          w={{ base: '100%', sm: 320 }}
          data-testid="orders-search"
        />
        <Select
          label={t('orders:admin.status')}
          placeholder={t('orders:admin.anyStatus')}
          clearable
          data={ORDER_STATUSES.map((value) => ({ value, label: t(`common:cart.status.${value}`) }))}
          value={status}
          onChange={(value) => { setStatus(value as OrderStatus | null); setPage(1); }}
          w={{ base: '100%', sm: 200 }}
          data-testid="orders-status"
        />
        {orders.data ? (
          <Text size="sm" c="dimmed" data-testid="orders-count">
            {t('orders:admin.count', { count: orders.data.total })}
          </Text>
        ) : null}
      </Group>
      {exportFailed ? <Text c="red" mb="sm">{t('orders:admin.exportFailed')}</Text> : null}
      <PagedQuery query={orders} page={page} onPage={setPage} failed={t('orders.loadFailed')} empty={<EmptyState title={t('common:empty.itemsNotFound')} />}>
        {(data) =>
          cards ? (
            <RowCards testId="orders-table">
              {data.items.map((order) => (
                <RowCard
                  key={order.id}
                  testId="orders-row"
                  heading={<OrderLink order={order} />}
                  aside={<OrderStatusBadge status={order.status} testId="orders-row-status" />}
                  fields={[
                    { label: t('orders.date'), value: formatDateTime(order.createdAt, locale) },
                    { label: t('orders:admin.buyer'), value: <Buyer order={order} /> },
                    { label: t('orders.items'), value: <Text span size="sm" dir="auto"><OrderSubject order={order} /></Text> },
                    { label: t('orders.total'), value: formatPrice(order.total, order.currency, locale) },
                  ]}
                />
              ))}
            </RowCards>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover data-testid="orders-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('orders.order')}</Table.Th>
                    <Table.Th>{t('orders.date')}</Table.Th>
                    <Table.Th>{t('orders:admin.buyer')}</Table.Th>
                    <Table.Th>{t('orders.items')}</Table.Th>
                    <Table.Th>{t('orders.total')}</Table.Th>
                    <Table.Th>{t('orders.status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((order) => (
                    <Table.Tr key={order.id} data-testid="orders-row">
                      <Table.Td>
                        <OrderLink order={order} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(order.createdAt, locale)}</Table.Td>
                      <Table.Td>
                        <Buyer order={order} />
                      </Table.Td>
                      <OrderCells order={order} locale={locale} statusTestId="orders-row-status" />
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </PagedQuery>
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
  // Only a fulfilled order is refunded (a paid one is still being issued its tickets; the
  // server answers 409 to it).
  const refundable = data.status === 'fulfilled';
  return (
    <>
      <PageHeader
        title={t('orders.one', { id: data.id.slice(0, 8) })}
        actions={
          <Group gap="xs">
            {wasPaid(data) ? (
              <Button component={Link} to={`/receipts/${data.id}`} variant="default" leftSection={<IconReceipt size={16} />}>
                {t('orders:receipt.open')}
              </Button>
            ) : null}
            {refundable ? (
              <Button color="orange" onClick={() => { setConfirming(true); }} data-testid="order-refund">
                {t('orders.refund')}
              </Button>
            ) : null}
          </Group>
        }
      />
      <Card withBorder data-testid="order-page">
        <Stack>
          <Group justify="space-between">
            <Text c="dimmed">{formatDateTime(data.createdAt, locale)}</Text>
            <Badge color={ORDER_STATUS_COLOR[data.status]} data-testid="order-status">
              {t(`common:cart.status.${data.status}`)}
            </Badge>
          </Group>
          <Text size="sm">{t('orders:admin.buyerIs', { name: data.buyer.name || data.buyer.email, email: data.buyer.email })}</Text>
          <Text size="sm">{t('orders.provider', { provider: data.provider })}</Text>
          {data.failure ? <Text c="red">{data.failure}</Text> : null}
          {data.refundedAt ? <Text size="sm">{t('orders.refundedAt', { date: formatDateTime(data.refundedAt, locale) })}</Text> : null}
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
      <ConfirmDialog
        opened={confirming}
        onClose={() => { setConfirming(false); }}
        title={t('orders.refundTitle')}
        cancelLabel={t('plans.cancel')}
        confirmLabel={t('orders.refund')}
        color="orange"
        busy={refund.isPending}
        onConfirm={() => { refund.mutate(reason); }}
        confirmTestId="confirm-refund"
      >
        <Text>{t('orders.refundText')}</Text>
        <TextInput label={t('orders.reason')} value={reason} onChange={(e) => { setReason(e.currentTarget.value); }} />
      </ConfirmDialog>
    </>
  );
}
