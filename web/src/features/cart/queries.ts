import { queryOptions } from '@tanstack/react-query';
import { fetchCart } from './api';

/** GET /api/v1/cart/ (docs/api-contract.md). */
export const cartKeys = { list: ['cart', 'list'] as const };

export const cartQueryOptions = () =>
  queryOptions({ queryKey: cartKeys.list, queryFn: fetchCart, staleTime: 30_000 });
