import { API_PREFIX } from '../../lib/constants';
import type { Body, Query } from '../../lib/api-types';
import { request, requestBlob } from '../../lib/http';
import type { Billing, BillingInput, Order, OrderFilter, OrderPage, PaymentMethod, PlanChange, PlanInput, PricingPlan, Receipt, SalesFigures, SalesPeriod } from './model';

export const listPaymentMethods = (): Promise<PaymentMethod[]> => request<PaymentMethod[]>(`${API_PREFIX}/payments/methods`);
export const getBilling = (): Promise<Billing> => request<Billing>(`${API_PREFIX}/payments/billing`);
export const saveBilling = (billing: BillingInput): Promise<Billing> =>
  request<Billing>(`${API_PREFIX}/payments/billing`, { method: 'PUT', body: billing });
export const listPlans = (): Promise<PricingPlan[]> => request<PricingPlan[]>(`${API_PREFIX}/pricing-plans`);
export const createPlan = (input: PlanInput): Promise<PricingPlan> =>
  request<PricingPlan>(`${API_PREFIX}/pricing-plans`, { method: 'POST', body: input });
export const updatePlan = (id: string, input: PlanChange): Promise<PricingPlan> =>
  request<PricingPlan>(`${API_PREFIX}/pricing-plans/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
export const retirePlan = (id: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/pricing-plans/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Orders: one (its buyer or staff), all (staff, newest first), and a refund (staff). */
export const getOrder = (orderId: string): Promise<Order> => request<Order>(`${API_PREFIX}/orders/${encodeURIComponent(orderId)}`);
export const listOrders = (page: number, pageSize: number, filter: OrderFilter = {}): Promise<OrderPage> =>
  request<OrderPage>(`${API_PREFIX}/orders`, {
    query: { page, pageSize, search: filter.search || undefined, status: filter.status } satisfies Query<'commerce.all_orders'>,
  });
/** Every order matching the filter as CSV, written by the server (the whole list, not one page). */
export const exportOrders = (filter: OrderFilter = {}): Promise<Blob> =>
  requestBlob(`${API_PREFIX}/orders/export.csv`, {
    query: { search: filter.search || undefined, status: filter.status } satisfies Query<'commerce.export_orders'>,
  });
/** The reader's own orders, newest first. */
export const listMyOrders = (page: number, pageSize: number): Promise<OrderPage> =>
  request<OrderPage>(`${API_PREFIX}/purchases/my/`, { query: { page, pageSize } satisfies Query<'commerce.my_purchases'> });
export const getReceipt = (orderId: string): Promise<Receipt> =>
  request<Receipt>(`${API_PREFIX}/orders/${encodeURIComponent(orderId)}/receipt`);
/** Sales over a preset or custom period against the one before it (staff). */
export const getSalesFigures = (period: SalesPeriod): Promise<SalesFigures> =>
  request<SalesFigures>(`${API_PREFIX}/stats/sales`, {
    query: ('days' in period ? { days: period.days } : { from: period.from, to: period.to }) satisfies Query<'commerce.sales'>,
  });
export const refundOrder = (orderId: string, reason?: string): Promise<Order> =>
  request<Order>(`${API_PREFIX}/orders/${encodeURIComponent(orderId)}/refund`, {
    method: 'POST',
    body: { reason } satisfies Body<'commerce.refund'>,
  });
