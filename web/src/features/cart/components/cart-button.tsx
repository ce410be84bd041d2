import { ActionIcon, Indicator } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../../i18n/numbers';
import { cartQueryOptions } from '../queries';

/** Cart button: links to /cart; the badge shows the item count when the cart is non-empty. */
export function CartButton(): ReactNode {
  const { t, i18n } = useTranslation();
  const { data } = useQuery(cartQueryOptions());
  const count = data?.length ?? 0;
  return (
    <Indicator label={formatNumber(count, i18n.language)} size={16} disabled={count === 0} offset={4} data-testid="cart-badge">
      <ActionIcon component={Link} to="/cart" variant="subtle" size="lg" aria-label={t('cart.open')}>
        <IconShoppingCart size={20} />
      </ActionIcon>
    </Indicator>
  );
}
