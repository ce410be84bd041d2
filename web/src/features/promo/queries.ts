import { queryOptions } from '@tanstack/react-query';
import { fetchCartPromo, listPromoCodes } from './api';
import type { PromoScope } from './api';

export const promoKeys = {
  all: ['promo-codes'] as const,
  of: (scope: PromoScope) => ['promo-codes', scope.kind, scope.id] as const,
  // Under the cart's own key: every change to the cart refreshes the code's totals too.
  cart: ['cart', 'list', 'promo-code'] as const,
};

export const promoCodesQueryOptions = (scope: PromoScope) => queryOptions({ queryKey: promoKeys.of(scope), queryFn: () => listPromoCodes(scope) });

/** The code in the signed-in account's cart, with the totals it makes. */
export const cartPromoQueryOptions = () => queryOptions({ queryKey: promoKeys.cart, queryFn: fetchCartPromo });
