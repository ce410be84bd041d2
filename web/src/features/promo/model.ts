import type { Schema } from '../../lib/api-types';
import { parseAmount } from '../../i18n/numbers';
import { currencyDigits } from '../cart/model';
import { isoToLocalInput, localInputToIso } from '../events/model';

export type PromoCode = Schema<'PromoCode'>;
export type PromoCodeInput = Schema<'PromoCodeInput'>;
export type PromoKind = Schema<'PromoKind'>;
export type CartPromo = Schema<'CartPromo'>;

export const PROMO_KINDS = ['percent', 'amount', 'unlock'] as const satisfies readonly PromoKind[];

/** What the code form holds: text as typed (the amount through the money input). */
export interface PromoValues {
  code: string;
  kind: PromoKind;
  percent: string;
  amount: string;
  maxUses: string;
  maxPerAccount: string;
  validFrom: string;
  validUntil: string;
  tierIds: string[];
}

export function promoValues(code: PromoCode | null): PromoValues {
  if (!code) return { code: '', kind: 'percent', percent: '', amount: '', maxUses: '', maxPerAccount: '', validFrom: '', validUntil: '', tierIds: [] };
  const digits = currencyDigits(code.currency ?? 'EUR');
  return {
    code: code.code,
    kind: code.kind,
    percent: code.kind === 'percent' ? String(code.value) : '',
    amount: code.kind === 'amount' ? (code.value / 10 ** digits).toFixed(digits) : '',
    maxUses: code.maxUses === null ? '' : String(code.maxUses),
    maxPerAccount: code.maxPerAccount === null ? '' : String(code.maxPerAccount),
    validFrom: code.validFrom ? isoToLocalInput(code.validFrom) : '',
    validUntil: code.validUntil ? isoToLocalInput(code.validUntil) : '',
    tierIds: code.tierIds,
  };
}

const CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;

/** Why the form cannot be sent (a key of the `promo` namespace), field by field. */
export function promoProblems(values: PromoValues, currency: string): Partial<Record<keyof PromoValues, string>> {
  const problems: Partial<Record<keyof PromoValues, string>> = {};
  if (!CODE_PATTERN.test(values.code.trim())) problems.code = 'form.codeRule';
  if (values.kind === 'percent') {
    const n = Number(values.percent);
    if (!Number.isInteger(n) || n < 1 || n > 100) problems.percent = 'form.percentRule';
  }
  if (values.kind === 'amount') {
    const minor = parseAmount(values.amount, currencyDigits(currency));
    if (minor === null || minor < 1) problems.amount = 'form.amountRule';
  }
  if (values.kind === 'unlock' && values.tierIds.length === 0) problems.tierIds = 'form.tiersRule';
  for (const field of ['maxUses', 'maxPerAccount'] as const) {
    const text = values[field].trim();
    if (text !== '' && !(Number.isInteger(Number(text)) && Number(text) >= 1)) problems[field] = 'form.limitRule';
  }
  if (values.validFrom && values.validUntil && Date.parse(localInputToIso(values.validUntil)) <= Date.parse(localInputToIso(values.validFrom))) {
    problems.validUntil = 'form.datesRule';
  }
  return problems;
}

/** What the form sends (a change replaces every field). */
export function promoInput(values: PromoValues, currency: string, eventId: string | null): PromoCodeInput {
  const optional = (text: string): number | null => (text.trim() === '' ? null : Number(text));
  const value =
    values.kind === 'percent' ? Number(values.percent) : values.kind === 'amount' ? (parseAmount(values.amount, currencyDigits(currency)) ?? 0) : 0;
  return {
    code: values.code.trim(),
    kind: values.kind,
    value,
    currency: values.kind === 'amount' ? currency : null,
    eventId,
    maxUses: optional(values.maxUses),
    maxPerAccount: optional(values.maxPerAccount),
    validFrom: values.validFrom ? localInputToIso(values.validFrom) : null,
    validUntil: values.validUntil ? localInputToIso(values.validUntil) : null,
    tierIds: values.kind === 'unlock' ? values.tierIds : [],
  };
}
