import type { Body, Payload, Schema } from '../../lib/api-types';

/** Orders as the server sends them (docs/api-contract.md, "Orders"). */
export type OrderItem = Schema<'OrderItem'>;
export type OrderStatus = Schema<'OrderStatus'>;
export type Order = Schema<'Order'>;
export type OrderPage = Payload<'commerce.all_orders'>;
export type Receipt = Payload<'commerce.show_receipt'>;
export type SalesFigures = Payload<'commerce.sales'>;
export type CurrencyFigures = Schema<'CurrencyFigures'>;

/** Payment methods, billing details and pricing plans, as the server sends and takes them. */
export type PaymentMethod = Schema<'PaymentMethod'>;
export type BillingAddress = Schema<'BillingAddress'>;
/** `accountNumberUnavailable`: the stored number cannot be decrypted on this server (its data key changed). */
export type BankDetails = Schema<'BankDetails'>;
export type Billing = Schema<'Billing'>;
export type BillingInput = Body<'commerce.save'>;
export type PricingPlan = Schema<'PricingPlan'>;
export type PlanInput = Body<'commerce.create'>;
export type PlanChange = Body<'commerce.update'>;

/** States whose money was taken (and perhaps given back since): only these have a receipt. */
const PAID_STATUSES: readonly OrderStatus[] = ['paid', 'fulfilled', 'refunded'];

/** Whether money was taken for the order: only then is there a receipt and a "paid" total. */
export function wasPaid(order: Pick<Order, 'status'>): boolean {
  return PAID_STATUSES.includes(order.status);
}

/** An order's state in words, for its buyer: paid, refunded, failed, expired or pending. */
export function stateInWords(status: OrderStatus): 'paid' | 'refunded' | 'failed' | 'expired' | 'pending' {
  return status === 'fulfilled' ? 'paid' : status;
}

/** What the orders table is narrowed to. */
export interface OrderFilter {
  search?: string;
  status?: OrderStatus;
}

export const ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'paid', 'fulfilled', 'failed', 'expired', 'refunded'];

/** A preset period (the last 7, 30 or 90 days) or a custom one, `[from, to)` as RFC 3339. */
export type SalesPeriod = { days: 7 | 30 | 90 } | { from: string; to: string };

/** A custom period from the reader's calendar days: from the first day's local midnight to
 * the midnight after the last day, so both days are included whatever the time zone. */
export function customPeriod(first: Date, last: Date): SalesPeriod {
  const from = new Date(first.getFullYear(), first.getMonth(), first.getDate());
  const to = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** The change against the previous period, for a badge: its sign decides the colour. */
export function changeTone(change: number | null): 'up' | 'down' | 'flat' | 'new' {
  if (change === null) return 'new';
  if (change > 0) return 'up';
  if (change < 0) return 'down';
  return 'flat';
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
