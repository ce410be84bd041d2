import { queryOptions } from '@tanstack/react-query';
import { fetchCart } from './api';

/**
 * The cart API (GET /api/v1/cart/) arrives with the concerts-and-cart step; it is not in
 * docs/api-contract.md yet. Until then the query stays disabled and the cart shows as
 * empty — no request that would 404, no made-up items. Flip this when the server has it.
 */
export const CART_API_AVAILABLE = false;

export const cartKeys = { list: ['cart', 'list'] as const };

export const cartQueryOptions = () =>
  queryOptions({ queryKey: cartKeys.list, queryFn: fetchCart, enabled: CART_API_AVAILABLE, staleTime: 30_000 });
