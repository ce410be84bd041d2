import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { CartPromo, PromoCode, PromoCodeInput } from './model';

const id = encodeURIComponent;

/** Where a set of codes lives: one concert's, or a project's (all its concerts). */
export type PromoScope = { kind: 'event'; id: string } | { kind: 'project'; id: string };

const scopePath = (scope: PromoScope): string => `${API_PREFIX}/${scope.kind === 'event' ? 'events' : 'projects'}/${id(scope.id)}/promo-codes`;

export const listPromoCodes = (scope: PromoScope): Promise<PromoCode[]> => request<PromoCode[]>(scopePath(scope));

export const createPromoCode = (scope: PromoScope, input: PromoCodeInput): Promise<PromoCode> =>
  request<PromoCode>(scopePath(scope), { method: 'POST', body: input });

export const updatePromoCode = (codeId: string, input: PromoCodeInput): Promise<PromoCode> =>
  request<PromoCode>(`${API_PREFIX}/promo-codes/${id(codeId)}`, { method: 'PUT', body: input });

export const deletePromoCode = (codeId: string): Promise<unknown> => request<unknown>(`${API_PREFIX}/promo-codes/${id(codeId)}`, { method: 'DELETE' });

/** The cart's code with the totals before and after it; null without one. */
export const fetchCartPromo = (): Promise<CartPromo | null> => request<CartPromo | null>(`${API_PREFIX}/cart/promo-code`);

export const enterCartPromo = (code: string): Promise<CartPromo> => request<CartPromo>(`${API_PREFIX}/cart/promo-code`, { method: 'PUT', body: { code } });

export const removeCartPromo = (): Promise<unknown> => request<unknown>(`${API_PREFIX}/cart/promo-code`, { method: 'DELETE' });
