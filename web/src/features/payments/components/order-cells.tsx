import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatPrice } from '../../cart/model';
import type { Order } from '../model';
import { OrderStatusBadge } from './order-status-badge';

/** An order's row cells that the staff's orders tables show side by side: what was bought, the
 * total in the reader's `locale`, and the order's state. */
export function OrderCells({ order, locale, statusTestId }: { order: Order; locale: string; statusTestId?: string }): ReactNode {
  return (
    <>
      <Table.Td>{order.items.map((item) => item.title).join(', ')}</Table.Td>
      <Table.Td>{formatPrice(order.total, order.currency, locale)}</Table.Td>
      <Table.Td>
        <OrderStatusBadge status={order.status} testId={statusTestId} />
      </Table.Td>
    </>
  );
}
