import { formatDate } from '../../i18n/dates';
import { latinDigits } from '../../i18n/numbers';
import type { OperatorLine, Payout, ProjectStatements, Statement } from './api';

/** A statement's month, `2026-11`, in UTC (as the server counts them). */
export type Period = string;

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isPeriod(text: string | null | undefined): text is Period {
  return typeof text === 'string' && PERIOD.test(text);
}

/** The month `now` is in, UTC. */
export function currentPeriod(now: Date = new Date()): Period {
  return now.toISOString().slice(0, 7);
}

/** `period` moved by `months` (−1: the month before). */
export function shiftPeriod(period: Period, months: number): Period {
  const [year = 0, month = 1] = period.split('-').map(Number);
  const start = new Date(Date.UTC(year, month - 1 + months, 1));
  return start.toISOString().slice(0, 7);
}

/** The month's first instant (UTC), for writing its name. */
export function periodStart(period: Period): Date {
  return new Date(`${period}-01T00:00:00Z`);
}

/** The month's name in the reader's language and digits, in the Gregorian calendar the
 * statements are counted in ("November 2026"); Persian reads `periodName`'s days instead. */
export const MONTH_FORMAT: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric', timeZone: 'UTC', calendar: 'gregory' };

/** A day and month of the Solar Hijri calendar ("۱۰ آبان"), with its year ("۱۰ آبان ۱۴۰۵"). */
const PERSIAN_DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', timeZone: 'UTC', calendar: 'persian' };
const PERSIAN_DAY_YEAR: Intl.DateTimeFormatOptions = { ...PERSIAN_DAY, year: 'numeric' };

/** The period as the reader names it: the Gregorian month the statements are counted in
 * ("November 2026"), and in Persian the Solar Hijri days it spans, for a Gregorian month
 * is never one Persian month ("۱۰ آبان تا ۹ آذر ۱۴۰۵"; the years on both ends when it
 * crosses Nowruz). The API's periods stay Gregorian. */
export function periodName(period: Period, locale: string): string {
  if (!locale.startsWith('fa')) return formatDate(periodStart(period), locale, MONTH_FORMAT);
  const first = periodStart(period);
  const last = new Date(periodStart(shiftPeriod(period, 1)).getTime() - 86_400_000);
  const year = (day: Date): string => formatDate(day, locale, { year: 'numeric', timeZone: 'UTC', calendar: 'persian' });
  const from = formatDate(first, locale, year(first) === year(last) ? PERSIAN_DAY : PERSIAN_DAY_YEAR);
  return `${from} تا ${formatDate(last, locale, PERSIAN_DAY_YEAR)}`;
}

/** A payout's day in the reader's language, digits and calendar, as the month above it is
 * written ("27 November 2026", Persian "۶ آذر ۱۴۰۵"). */
export const PAYOUT_DATE_FORMAT: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };

/** What is still owed on a statement, in minor units (below zero when refunds came after a
 * payout); a server older than payouts sends no `owed`: the net then. */
export function owedOn(statement: Statement): number {
  return (statement.owed as number | undefined) ?? statement.net;
}

/** Text as staff wrote it, set apart from the sentence around it (a Latin reference in a
 * Persian line keeps its own order). */
export const isolate = (text: string): string => `\u2068${text}\u2069`;

/** A project's payouts of the month (none from a server older than payouts). */
export function payoutsOf(statements: ProjectStatements | undefined): Payout[] {
  return (statements?.payouts as Payout[] | undefined) ?? [];
}

export type StatementLineKey = 'ticketSales' | 'ticketSalesBeforeDiscounts' | 'discounts' | 'tips' | 'passShares' | 'refunds' | 'paymentFees' | 'platformFee' | 'net' | 'paidOut' | 'paidByStripe' | 'owed';

export interface StatementLine {
  key: StatementLineKey;
  /** Minor units, signed as the line counts: what is taken away is negative. */
  amount: number;
  total?: true;
}

/** −amount, never −0 (which Intl writes "-€0.00"). */
const less = (amount: number): number => (amount === 0 ? 0 : -amount);

/** A statement as read, top to bottom: what came in, what went out, and the net due; once
 * staff recorded a payout against it, what was paid out and what is still owed. */
export function statementLines(statement: Statement): StatementLine[] {
  // What promo codes took off the tickets: the sales before them, then the discounts (a
  // server older than line discounts sends none: the sales as paid).
  const discounts = (statement.discounts as number | undefined) ?? 0;
  const sales: StatementLine[] =
    discounts > 0
      ? [
          { key: 'ticketSalesBeforeDiscounts', amount: statement.ticketSales + discounts },
          { key: 'discounts', amount: -discounts },
        ]
      : [{ key: 'ticketSales', amount: statement.ticketSales }];
  const lines: StatementLine[] = [
    ...sales,
    // Tips during the show, where there were any (a server older than tips sends none).
    ...((statement.tips as number | undefined) ? [{ key: 'tips' as const, amount: statement.tips }] : []),
    { key: 'passShares', amount: statement.passShares },
    { key: 'refunds', amount: less(statement.refunds) },
    { key: 'paymentFees', amount: less(statement.paymentFees) },
    { key: 'platformFee', amount: less(statement.platformFee) },
    { key: 'net', amount: statement.net, total: true },
  ];
  // A server older than payouts sends neither; one older than Stripe Connect, no paidByStripe.
  const paidOut = (statement.paidOut as number | undefined) ?? 0;
  const paidByStripe = (statement.paidByStripe as number | undefined) ?? 0;
  if (paidOut !== 0) lines.push({ key: 'paidOut', amount: less(paidOut) });
  if (paidByStripe !== 0) lines.push({ key: 'paidByStripe', amount: less(paidByStripe) });
  if (paidOut !== 0 || paidByStripe !== 0) lines.push({ key: 'owed', amount: statement.owed, total: true });
  return lines;
}

export type OperatorLineKey = 'passSales' | 'passRefunds' | 'passPaymentFees' | 'unsharedPasses' | 'platformFees';

export const OPERATOR_LINES: readonly OperatorLineKey[] = ['passSales', 'passRefunds', 'passPaymentFees', 'unsharedPasses', 'platformFees'];

/** The operator's lines of one currency, what it gave back or paid counted negative. */
export function operatorLines(line: OperatorLine): { key: OperatorLineKey; amount: number }[] {
  return OPERATOR_LINES.map((key) => ({ key, amount: key === 'passRefunds' || key === 'passPaymentFees' ? less(line[key]) : line[key] }));
}

/** A percentage the server writes (`"7.5"`) in the reader's digits and sign ("7.5%", "۷٫۵٪"). */
export function formatPercent(percent: string, locale: string): string {
  const value = Number(percent);
  if (!Number.isFinite(value)) return percent;
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
}

/** What a reader typed as a percentage, as the server reads it: Persian or Arabic digits and
 * decimal separators made Latin, spaces and a percent sign left out. */
export function typedPercent(text: string): string {
  return latinDigits(text)
    .replace(/[\u066B,]/g, '.')
    .replace(/[\s%\u066A]/g, '');
}
