import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseAmount } from '../../i18n/numbers';
import { errorText } from '../../lib/errors';
import { currencyDigits } from '../cart/model';
import { cartKeys } from '../cart/queries';
import { addPassToCart } from '../cart/api';
import type { Currency } from '../events/model';
import { eventKeys } from '../events/queries';
import { createPlan, refundOrder, retirePlan, saveBilling, updatePlan } from './api';
import type { Billing, PricingPlan } from './model';
import { orderKeys, paymentKeys } from './queries';

/** POST /orders/{id}/refund (staff): says how it went, and refreshes orders and concerts
 * (seats and sales change with a refund). */
export function useRefundOrder(orderId: string, onRefunded: () => void) {
  const { t } = useTranslation('payments');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => refundOrder(orderId, reason.trim() || undefined),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('orders.refunded') });
      onRefunded();
      await queryClient.invalidateQueries({ queryKey: orderKeys.all });
      await queryClient.invalidateQueries({ queryKey: eventKeys.all });
    },
    onError: (e) => {
      notifications.show({ color: 'red', message: errorText(e, t) });
    },
  });
}

/** PUT /billing: says so, stores the answer and hands it back; the error stays in the form. */
export function useSaveBilling(onDone: (saved: Billing) => void) {
  const { t } = useTranslation('payments');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: saveBilling,
    onMutate: () => {
      setError(null);
    },
    onSuccess: async (saved) => {
      queryClient.setQueryData(paymentKeys.billing, saved);
      notifications.show({ color: 'green', message: t('billing.saved') });
      onDone(saved);
      await queryClient.invalidateQueries({ queryKey: paymentKeys.billing });
    },
    onError: (e) => {
      setError(errorText(e, t));
    },
  });
  return { mutation, error };
}

export interface PlanValues {
  name: string;
  description: string;
  /** Major units as typed (any digits; see `MoneyInput`). */
  price: string;
  currency: Currency;
  days: number | string;
}

/** Create (plan null) or update a pass; the error goes to the form (`onError`). */
export function useSavePlan(plan: PricingPlan | null, onSaved: () => void, onError: (message: string) => void) {
  const { t } = useTranslation('payments');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: PlanValues) => {
      const input = {
        name: values.name.trim(),
        description: values.description,
        // Checked by the form before it is sent.
        price: parseAmount(values.price, currencyDigits(values.currency)) ?? 0,
        currency: values.currency,
        days: Number(values.days),
      };
      return plan ? updatePlan(plan.id, input) : createPlan(input);
    },
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('plans.saved') });
      await queryClient.invalidateQueries({ queryKey: paymentKeys.plans });
      onSaved();
    },
    onError: (e) => {
      onError(errorText(e, t));
    },
  });
}

/** Retire a pass (staff). */
export function useRetirePlan() {
  const { t } = useTranslation('payments');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: PricingPlan) => retirePlan(plan.id),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('plans.retiredDone') });
      await queryClient.invalidateQueries({ queryKey: paymentKeys.plans });
    },
    onError: (e) => {
      notifications.show({ color: 'red', message: errorText(e, t) });
    },
  });
}

/** POST /cart/passes/{id}: says so, and refreshes the cart either way. */
export function useAddPassToCart(plan: PricingPlan) {
  const { t } = useTranslation('payments');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => addPassToCart(plan.id),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('plans.added', { name: plan.name }) });
    },
    onError: (error) => {
      notifications.show({ color: 'red', message: errorText(error, t) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.list }),
  });
}
