/** Tips during the show (docs/api-contract.md, "Tips during the show"). */
import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { TipList, TipOptions, TipSettings } from './model';

const tips = (eventId: string): string => `${API_PREFIX}/events/${encodeURIComponent(eventId)}/tips`;

/** The presets, the limits and the currency of a concert's tips. */
export const getTipOptions = (eventId: string): Promise<TipOptions> => request<TipOptions>(`${tips(eventId)}/options`);

/** Starts a tip: the payment page's URL (as a checkout's). A 403 (no ticket, outside the
 * window, cancelled) is the form's answer, never the forbidden page. */
export const startTip = (eventId: string, amount: number, message: string): Promise<string> =>
  request<string>(tips(eventId), { method: 'POST', body: { amount, message }, forbiddenIsAnswer: true });

/** The concert's paid tips and their totals (its managers). */
export const getTips = (eventId: string): Promise<TipList> => request<TipList>(tips(eventId));

/** Sets a concert's tips: on or off, the presets and the minimum (its managers). */
export const setTipSettings = (eventId: string, settings: TipSettings): Promise<TipOptions> =>
  request<TipOptions>(`${tips(eventId)}/settings`, { method: 'PUT', body: settings });
