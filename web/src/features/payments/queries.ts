import { queryOptions } from '@tanstack/react-query';
import { getBilling, listPaymentMethods, listPlans } from './api';

export const paymentKeys = {
  methods: ['payments', 'methods'] as const,
  billing: ['payments', 'billing'] as const,
  plans: ['pricing-plans', 'list'] as const,
};

export const paymentMethodsQueryOptions = () => queryOptions({ queryKey: paymentKeys.methods, queryFn: listPaymentMethods });
export const billingQueryOptions = () => queryOptions({ queryKey: paymentKeys.billing, queryFn: getBilling });
export const plansQueryOptions = () => queryOptions({ queryKey: paymentKeys.plans, queryFn: listPlans, staleTime: 60_000 });
