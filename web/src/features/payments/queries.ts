import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getBilling, getOrder, listOrders, listPaymentMethods, listPlans } from './api';

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
  list: (page: number, pageSize: number) => ['orders', 'list', page, pageSize] as const,
};

export const orderQueryOptions = (id: string) =>
  queryOptions({ queryKey: orderKeys.detail(id), queryFn: () => getOrder(id) });

export const ordersQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: orderKeys.list(page, pageSize), queryFn: () => listOrders(page, pageSize), placeholderData: keepPreviousData });
