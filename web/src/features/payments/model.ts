import type { Payload, Schema } from '../../lib/api-types';

/** Orders as the server sends them (docs/api-contract.md, "Orders"). */
export type OrderItem = Schema<'OrderItem'>;
export type OrderStatus = Schema<'OrderStatus'>;
export type Order = Schema<'Order'>;
export type OrderPage = Payload<'commerce.all_orders'>;

/** The badge colour of each order status. */
export const ORDER_STATUS_COLOR: Record<OrderStatus, string> = {
  pending: 'yellow',
  paid: 'blue',
  fulfilled: 'green',
  failed: 'red',
  expired: 'gray',
  refunded: 'orange',
};
