import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { Gift, GiftPreview, GiveInput, MyTicket } from './model';

/** The reader's tickets: held, and given but not claimed yet. */
export const listMyTickets = (): Promise<MyTicket[]> => request<MyTicket[]>(`${API_PREFIX}/tickets/mine`);
export const giveTicket = (ticketId: string, input: GiveInput): Promise<Gift> =>
  request<Gift>(`${API_PREFIX}/tickets/${encodeURIComponent(ticketId)}/gift`, { method: 'POST', body: input });
/** Keep a spare ticket: it becomes the reader's own (answers their tickets). */
export const keepTicket = (ticketId: string): Promise<MyTicket[]> =>
  request<MyTicket[]>(`${API_PREFIX}/tickets/${encodeURIComponent(ticketId)}/keep`, { method: 'POST', body: {} });
export const resendGift = (giftId: string): Promise<Gift> =>
  request<Gift>(`${API_PREFIX}/gifts/${encodeURIComponent(giftId)}/resend`, { method: 'POST', body: {} });
export const takeBackGift = (giftId: string): Promise<Gift> =>
  request<Gift>(`${API_PREFIX}/gifts/${encodeURIComponent(giftId)}`, { method: 'DELETE' });
/** The claim link's token travels in the body, never in an API URL. Public: a signed-out
 * visitor reads it too. */
export const lookAtGift = (token: string): Promise<GiftPreview> =>
  request<GiftPreview>(`${API_PREFIX}/gifts/look`, { method: 'POST', body: { token }, auth: false });
export const claimGift = (token: string): Promise<Gift> =>
  request<Gift>(`${API_PREFIX}/gifts/claim`, { method: 'POST', body: { token } });
