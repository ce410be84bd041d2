import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { Order, OrderPage } from './model';

export interface PaymentMethod {
  id: 'test' | 'stripe';
  name: string;
  enabled: boolean;
  configured: boolean;
  keysValid: boolean | null;
  lastWebhookAt: string | null;
}

export interface BillingAddress {
  name: string;
  email: string;
  address: string;
  city: string;
  country: string;
  company: string;
}

export interface BankDetails {
  bankName: string;
  accountName: string;
  sortCode: string;
  accountNumber: string;
  /** The stored number cannot be decrypted on this server (its data key changed). */
  readonly accountNumberUnavailable?: boolean;
  notes: string;
}

export interface Billing {
  address: BillingAddress;
  bank: BankDetails;
}

export interface PricingPlan {
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  days: number;
  active: boolean;
}

export type PlanInput = Omit<PricingPlan, 'id' | 'active'>;

export const listPaymentMethods = (): Promise<PaymentMethod[]> => request<PaymentMethod[]>(`${API_PREFIX}/payments/methods`);
export const getBilling = (): Promise<Billing> => request<Billing>(`${API_PREFIX}/payments/billing`);
export const saveBilling = (billing: Billing): Promise<Billing> =>
  request<Billing>(`${API_PREFIX}/payments/billing`, { method: 'PUT', body: billing });
export const listPlans = (): Promise<PricingPlan[]> => request<PricingPlan[]>(`${API_PREFIX}/pricing-plans`);
export const createPlan = (input: PlanInput): Promise<PricingPlan> =>
  request<PricingPlan>(`${API_PREFIX}/pricing-plans`, { method: 'POST', body: input });
export const updatePlan = (id: string, input: Partial<PlanInput>): Promise<PricingPlan> =>
  request<PricingPlan>(`${API_PREFIX}/pricing-plans/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
export const retirePlan = (id: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/pricing-plans/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Orders: one (its buyer or staff), all (staff, newest first), and a refund (staff). */
export const getOrder = (orderId: string): Promise<Order> => request<Order>(`${API_PREFIX}/orders/${encodeURIComponent(orderId)}`);
export const listOrders = (page: number, pageSize: number): Promise<OrderPage> =>
  request<OrderPage>(`${API_PREFIX}/orders`, { query: { page, pageSize } });
export const refundOrder = (orderId: string, reason?: string): Promise<Order> =>
  request<Order>(`${API_PREFIX}/orders/${encodeURIComponent(orderId)}/refund`, { method: 'POST', body: { reason } });
