import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { startCheckout } from './api';
import { clearCart, removeEventFromCart, removePassFromCart, setCartQuantity } from './api';
import { goToPayment } from './checkout';
import type { CartEntry } from './model';
import { cartKeys } from './queries';

function useCartError(): (error: unknown) => void {
  const { t } = useTranslation();
  return (error) => {
    notifications.show({ color: 'red', message: errorText(error, t) });
  };
}

/** DELETE one concert or pass from the cart; refreshes the cart either way. */
export function useRemoveFromCart() {
  const queryClient = useQueryClient();
  const onError = useCartError();
  return useMutation({
    mutationFn: (entry: CartEntry) =>
      entry.event ? removeEventFromCart(entry.event.id) : removePassFromCart(entry.plan?.id ?? ''),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.list }),
    onError,
  });
}

/** PUT the quantity of a concert's entry; refreshes the cart either way (a refusal, such as
 * fewer tickets left, says why). */
export function useSetQuantity() {
  const queryClient = useQueryClient();
  const onError = useCartError();
  return useMutation({
    mutationFn: ({ eventId, quantity }: { eventId: string; quantity: number }) => setCartQuantity(eventId, quantity),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.list }),
    onError,
  });
}

/** DELETE /cart/: empties the cart; refreshes it either way. */
export function useClearCart() {
  const queryClient = useQueryClient();
  const onError = useCartError();
  return useMutation({
    mutationFn: clearCart,
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.list }),
    onError,
  });
}

/** "Pay now": the test provider's checkout is a page of this site, so this window goes
 * there, or the window opened at the click while a concert plays (`paymentWindow`). */
export function usePayNow() {
  const onError = useCartError();
  return useMutation({
    mutationFn: (_target: Window | null) => startCheckout(),
    onSuccess: (url, target) => {
      goToPayment(url, target);
    },
    onError: (error, target) => {
      target?.close();
      onError(error);
    },
  });
}
