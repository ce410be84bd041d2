import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { Payload } from '../../lib/api-types';
import type { CartEntry } from './model';

export const fetchCart = (): Promise<CartEntry[]> => request<CartEntry[]>(`${API_PREFIX}/cart/`);

export const removeEventFromCart = (eventId: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/cart/${encodeURIComponent(eventId)}`, { method: 'DELETE' });

export const removePassFromCart = (planId: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/cart/passes/${encodeURIComponent(planId)}`, { method: 'DELETE' });

export const clearCart = (): Promise<unknown> => request<unknown>(`${API_PREFIX}/cart/`, { method: 'DELETE' });

/** What `POST /cart/{eventId}` puts in the cart: the tier (none: the concert's default),
 * the amount the buyer names for a pay-what-you-want tier (minor units, per ticket) and how
 * many tickets (none: one). */
export interface CartAddition {
  tierId?: string;
  amount?: number;
  quantity?: number;
}

/** POST /cart/{eventId}: the concert's one entry, of the tier, amount and quantity asked. */
export function addEventToCart(eventId: string, { tierId, amount, quantity }: CartAddition = {}): Promise<unknown> {
  const query = new URLSearchParams();
  if (tierId) query.set('tier', tierId);
  if (amount !== undefined) query.set('amount', String(amount));
  if (quantity !== undefined) query.set('quantity', String(quantity));
  const search = query.toString();
  return request<unknown>(`${API_PREFIX}/cart/${encodeURIComponent(eventId)}${search ? `?${search}` : ''}`, { method: 'POST' });
}
/** PUT /cart/{eventId}?quantity=: how many tickets of the concert's entry (its tier stays). */
export const setCartQuantity = (eventId: string, quantity: number): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/cart/${encodeURIComponent(eventId)}?quantity=${String(quantity)}`, { method: 'PUT' });
export const addPassToCart = (planId: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/cart/passes/${encodeURIComponent(planId)}`, { method: 'POST' });

/** POST /cart/checkout: the payload is the checkout URL. */
export const startCheckout = (): Promise<Payload<'commerce.checkout'>> =>
  request<Payload<'commerce.checkout'>>(`${API_PREFIX}/cart/checkout`, { method: 'POST' });
