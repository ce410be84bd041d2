import { Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { errorText } from '../../../lib/errors';
import { startCheckout } from '../api';
import { openCheckoutWindow } from '../checkout';
import { cartKeys } from '../queries';

/**
 * /checkout (spec 2): asks the server for the checkout (with the bearer header), opens it
 * in a new window, then cancels the navigation by going back to the cart.
 */
export function CheckoutPage(): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startCheckout()
      .then((url) => {
        openCheckoutWindow(url);
      })
      .catch((error: unknown) => {
        notifications.show({ color: 'red', message: errorText(error, t) });
      })
      .finally(() => {
        void queryClient.invalidateQueries({ queryKey: cartKeys.list });
        void navigate('/cart', { replace: true });
      });
  }, [navigate, queryClient, t]);
  return (
    <Stack align="center" py="xl">
      <Loader />
      <Text c="dimmed">{t('cart.opening')}</Text>
    </Stack>
  );
}
