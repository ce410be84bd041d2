import { API_PREFIX } from '../../lib/constants';
import type { Body, Payload, Schema } from '../../lib/api-types';
import { request, requestBlob } from '../../lib/http';

export type Statement = Schema<'Statement'>;
export type OperatorLine = Schema<'OperatorLine'>;
export type ProjectStatements = Payload<'statements.of_project'>;
export type PeriodStatements = Payload<'statements.of_all'>;
export type PlatformFee = Payload<'statements.set_fee'>;
export type Payout = Schema<'Payout'>;
export type PayoutRequest = Body<'statements.record_payout'>;

const id = (value: string): string => encodeURIComponent(value);
const projectBase = (projectId: string, period: string): string => `${API_PREFIX}/projects/${id(projectId)}/statements/${id(period)}`;

/** A project's statements of a month (`2026-11`, UTC), one per currency: its members and staff. */
export const getProjectStatements = (projectId: string, period: string): Promise<ProjectStatements> =>
  request<ProjectStatements>(projectBase(projectId, period));

/** The same statements as a CSV file written by the server. */
export const exportProjectStatements = (projectId: string, period: string): Promise<Blob> =>
  requestBlob(`${projectBase(projectId, period)}/export.csv`);

/** Every project's statements of a month and the operator's lines (staff). */
export const getPeriodStatements = (period: string): Promise<PeriodStatements> =>
  request<PeriodStatements>(`${API_PREFIX}/statements/${id(period)}`);

/** A project's own platform fee (`"7.5"`), or null for the operator's (staff). */
export const setPlatformFee = (projectId: string, percent: string | null): Promise<PlatformFee> =>
  request<PlatformFee>(`${API_PREFIX}/projects/${id(projectId)}/platform-fee`, {
    method: 'PUT',
    body: { percent } satisfies Body<'statements.set_fee'>,
  });

/** Staff: money paid out to the project outside Encore (a bank transfer) against a month's
 * statement in one currency, in minor units: 201 with the payout; 409 (the server says how
 * much is still owed) for more than that, 422 for an amount not above zero or a reference
 * over 200 characters. */
export const recordPayout = (projectId: string, payout: PayoutRequest): Promise<Payout> =>
  request<Payout>(`${API_PREFIX}/projects/${id(projectId)}/payouts`, { method: 'POST', body: payout });

export type PayoutAccount = Payload<'statements.show_account'>;
export type Onboarding = Payload<'statements.onboard'>;
export type BankDetails = Payload<'statements.show_bank'>;
export type BankDetailsInput = Body<'statements.save_bank'>;

const payoutBase = (projectId: string): string => `${API_PREFIX}/projects/${id(projectId)}`;

/** How a project gets paid: whether Stripe Connect is on, and its connected account's state. */
export const getPayoutAccount = (projectId: string): Promise<PayoutAccount> =>
  request<PayoutAccount>(`${payoutBase(projectId)}/payout-account`);

/** Start or continue the project's Stripe onboarding: a fresh, single-use link into Stripe. */
export const startOnboarding = (projectId: string): Promise<Onboarding> =>
  request<Onboarding>(`${payoutBase(projectId)}/payout-account`, { method: 'POST' });

/** The project's bank details (the account number masked for members, whole for staff). */
export const getBankDetails = (projectId: string): Promise<BankDetails> =>
  request<BankDetails>(`${payoutBase(projectId)}/bank-details`);

/** Replace the project's bank details; an account number sent back masked keeps the stored one. */
export const saveBankDetails = (projectId: string, details: BankDetailsInput): Promise<BankDetails> =>
  request<BankDetails>(`${payoutBase(projectId)}/bank-details`, { method: 'PUT', body: details });
