import { queryOptions } from '@tanstack/react-query';
import { fetchCart } from './api';

/** GET /api/v1/cart/ (docs/api-contract.md). The flag lets a build leave the cart out. */
export const CART_API_AVAILABLE = true;

export const cartKeys = { list: ['cart', 'list'] as const };

export const cartQueryOptions = () =>
  queryOptions({ queryKey: cartKeys.list, queryFn: fetchCart, enabled: CART_API_AVAILABLE, staleTime: 30_000 });
