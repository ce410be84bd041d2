import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { CartEntry } from './model';

export const fetchCart = (): Promise<CartEntry[]> => request<CartEntry[]>(`${API_PREFIX}/cart/`);
