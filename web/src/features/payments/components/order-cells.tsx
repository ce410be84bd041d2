import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '../../cart/model';
import type { Order } from '../model';
import { OrderStatusBadge } from './order-status-badge';

/** What an order was for: a tip's artist and concert ("Tip to … for …": a tip has no
 * lines), or its lines' titles. */
export function OrderSubject({ order }: { order: Order }): ReactNode {
  const { t } = useTranslation('orders');
  if (order.tip) return t('tipFor', { artist: order.tip.artistName, title: order.tip.title });
  return order.items.map((item) => item.title).join(', ');
}

/** An order's row cells that the staff's orders tables show side by side: what was bought, the
 * total in the reader's `locale`, and the order's state. */
export function OrderCells({ order, locale, statusTestId }: { order: Order; locale: string; statusTestId?: string }): ReactNode {
  return (
    <>
      <Table.Td>
        <OrderSubject order={order} />
      </Table.Td>
      <Table.Td>{formatPrice(order.total, order.currency, locale)}</Table.Td>
      <Table.Td>
        <OrderStatusBadge status={order.status} testId={statusTestId} />
      </Table.Td>
    </>
  );
}
