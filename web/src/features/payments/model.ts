/** Orders as the server sends them (docs/api-contract.md, "Orders"). */
export interface OrderItem {
  itemKind: 'event' | 'pass';
  itemId: string;
  title: string;
  price: number;
}

export type OrderStatus = 'pending' | 'paid' | 'fulfilled' | 'failed' | 'expired' | 'refunded';

export interface Order {
  id: string;
  accountId: string;
  status: OrderStatus;
  total: number;
  currency: string;
  provider: string;
  failure: string | null;
  createdAt: string;
  expiresAt: string | null;
  paidAt: string | null;
  refundedAt: string | null;
  items: OrderItem[];
}

export interface OrderPage {
  items: Order[];
  total: number;
  page: number;
  pageSize: number;
}

/** The badge colour of each order status. */
export const ORDER_STATUS_COLOR: Record<OrderStatus, string> = {
  pending: 'yellow',
  paid: 'blue',
  fulfilled: 'green',
  failed: 'red',
  expired: 'gray',
  refunded: 'orange',
};
