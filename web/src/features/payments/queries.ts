import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getBilling, getOrder, getReceipt, getSalesFigures, listMyOrders, listOrders, listPaymentMethods, listPlans } from './api';
import type { OrderFilter, SalesPeriod } from './model';

export const paymentKeys = {
  methods: ['payments', 'methods'] as const,
  billing: ['payments', 'billing'] as const,
  plans: ['pricing-plans', 'list'] as const,
};

export const paymentMethodsQueryOptions = () => queryOptions({ queryKey: paymentKeys.methods, queryFn: listPaymentMethods });
export const billingQueryOptions = () => queryOptions({ queryKey: paymentKeys.billing, queryFn: getBilling });
export const plansQueryOptions = () => queryOptions({ queryKey: paymentKeys.plans, queryFn: listPlans, staleTime: 60_000 });

export const orderKeys = {
  all: ['orders'] as const,
  detail: (id: string) => ['orders', 'detail', id] as const,
  list: (page: number, pageSize: number, filter: OrderFilter) => ['orders', 'list', page, pageSize, filter] as const,
  mine: (page: number, pageSize: number) => ['orders', 'mine', page, pageSize] as const,
  receipt: (id: string) => ['orders', 'receipt', id] as const,
  sales: (period: SalesPeriod) => ['orders', 'sales', period] as const,
};

export const orderQueryOptions = (id: string) =>
  queryOptions({ queryKey: orderKeys.detail(id), queryFn: () => getOrder(id) });

export const ordersQueryOptions = (page: number, pageSize: number, filter: OrderFilter = {}) =>
  queryOptions({ queryKey: orderKeys.list(page, pageSize, filter), queryFn: () => listOrders(page, pageSize, filter), placeholderData: keepPreviousData });

export const myOrdersQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: orderKeys.mine(page, pageSize), queryFn: () => listMyOrders(page, pageSize), placeholderData: keepPreviousData });

export const receiptQueryOptions = (id: string) => queryOptions({ queryKey: orderKeys.receipt(id), queryFn: () => getReceipt(id) });

/** Sales figures move with every sale: a minute old is fresh enough for a dashboard. */
export const salesFiguresQueryOptions = (period: SalesPeriod) =>
  queryOptions({ queryKey: orderKeys.sales(period), queryFn: () => getSalesFigures(period), staleTime: 60_000, placeholderData: keepPreviousData });
