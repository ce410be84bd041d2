import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { CartEntry } from './model';

export const fetchCart = (): Promise<CartEntry[]> => request<CartEntry[]>(`${API_PREFIX}/cart/`);

export const removeEventFromCart = (eventId: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/cart/${encodeURIComponent(eventId)}`, { method: 'DELETE' });

export const removePassFromCart = (planId: string): Promise<unknown> =>
  request<unknown>(`${API_PREFIX}/cart/passes/${encodeURIComponent(planId)}`, { method: 'DELETE' });

export const clearCart = (): Promise<unknown> => request<unknown>(`${API_PREFIX}/cart/`, { method: 'DELETE' });
