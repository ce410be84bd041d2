import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { eventKeys } from '../events/queries';
import { refundOrder } from './api';
import { orderKeys } from './queries';

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
