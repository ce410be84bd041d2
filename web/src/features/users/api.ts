import { API_PREFIX } from '../../lib/constants';
import { request, requestBlob } from '../../lib/http';
import type { Body, Query, Schema } from '../../lib/api-types';
import type { LanguageCode } from '../../i18n/languages';
import { fetchMe } from '../auth/api';
import { signedInAccountId } from '../auth/session';
import type { Account, AccountPage, Theme } from './model';

const BASE = `${API_PREFIX}/accounts`;

export type AccountListQuery = Query<'accounts.list'> & Pick<Required<Query<'accounts.list'>>, 'page' | 'pageSize'>;

export type AccountStats = Schema<'Stats'>;

/** A new account (staff); the first role is its role. */
export type AccountInput = Body<'accounts.create'>;

/** Changes to an account; `currentPassword` is the acting account's password: a new login
 * e-mail needs it (step-up). */
export type AccountPatch = Body<'accounts.update'>;

export const listAccounts = (query: AccountListQuery): Promise<AccountPage> =>
  request<AccountPage>(BASE, { query: { ...query } });

export const getAccountStats = (): Promise<AccountStats> => request<AccountStats>(`${BASE}/stats`);

export const createAccount = (input: AccountInput): Promise<Account> => request<Account>(BASE, { method: 'POST', body: input });

export const updateAccount = (id: string, patch: AccountPatch): Promise<Account> => request<Account>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PUT', body: patch });

/** One change to the signed-in account, sent at once (the id read from the access token, no
 * round trip first) and kept alive through a reload: a choice made just before one is kept. */
async function updateMe(patch: AccountPatch): Promise<Account> {
  const id = signedInAccountId() ?? (await fetchMe()).id;
  return request<Account>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PUT', body: patch, keepalive: true });
}

/** Keep the signed-in account's theme: its other devices start from it. */
export const saveMyTheme = (theme: Theme): Promise<Account> => updateMe({ theme });

/** Keep the signed-in account's listening quality: the player starts from it everywhere. */
export const saveMyStreamQuality = (streamQuality: NonNullable<AccountPatch['streamQuality']>): Promise<Account> => updateMe({ streamQuality });

/** Keep the signed-in account's language: the server writes its e-mails and SMS in it. */
export const saveMyLanguage = (language: LanguageCode): Promise<Account> => updateMe({ language });

export const deleteAccount = (id: string): Promise<null> =>
  request<null>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const changeMfa = (id: string, useMFA: boolean, currentPassword: string): Promise<Account> =>
  request<Account>(`${BASE}/${encodeURIComponent(id)}/changemfa`, {
    method: 'POST',
    body: { useMFA, currentPassword } satisfies Body<'accounts.change_mfa'>,
  });

export const reinviteAccount = (id: string): Promise<null> =>
  request<null>(`${BASE}/${encodeURIComponent(id)}/reinvite`, { method: 'POST' });

export const changePassword = (id: string, currentPassword: string, newPassword: string): Promise<null> =>
  request<null>(`${BASE}/${encodeURIComponent(id)}/password`, {
    method: 'POST',
    body: { currentPassword, newPassword } satisfies Body<'accounts.change_password'>,
  });

// Phone changes take the current password (step-up); a 403 (e-mail not verified, or a session
// of a two-step account that did not pass the second factor) is shown, not a role failure.
export const startPhoneEnrolment = (id: string, phone: string, currentPassword: string): Promise<null> =>
  request<null>(`${BASE}/${encodeURIComponent(id)}/phone`, {
    method: 'POST',
    body: { phone: phone.replace(/[\s()-]/g, ''), currentPassword } satisfies Body<'accounts.start_phone_change'>,
    forbiddenIsAnswer: true,
  });

export const verifyPhone = (id: string, code: string, currentPassword: string): Promise<Account> =>
  request<Account>(`${BASE}/${encodeURIComponent(id)}/phone/verify`, {
    method: 'POST',
    body: { code: code.trim(), currentPassword } satisfies Body<'accounts.verify_phone_change'>,
    forbiddenIsAnswer: true,
  });

export const removePhone = (id: string, currentPassword: string): Promise<Account> =>
  request<Account>(`${BASE}/${encodeURIComponent(id)}/phone`, {
    method: 'DELETE',
    body: { currentPassword } satisfies Body<'accounts.remove_phone'>,
  });

export const uploadAvatar = (id: string, file: File): Promise<Account> => {
  const form = new FormData();
  form.append('file', file);
  return request<Account>(`${BASE}/${encodeURIComponent(id)}/avatar`, { method: 'POST', form });
};

export const fetchAvatar = (url: string): Promise<Blob> => requestBlob(url);
