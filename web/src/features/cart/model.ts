import type { Schema } from '../../lib/api-types';

/** Cart entries as the server sends them (docs/api-contract.md, "Cart, checkout, purchases"). */
export type CartEntry = Schema<'CartEntry'>;

interface PricedItem {
  id?: string;
  /** Minor units (cents). */
  price?: number | null;
  currency?: string | null;
}

/** What the totals read of an entry: a price left out counts as 0 (spec 3), so they take
 * less than a documented entry. */
export interface PricedEntry {
  kind?: CartEntry['kind'];
  event: PricedItem | null;
  plan?: PricedItem | null;
  /** Tickets of the entry's tier (absent: 1). */
  quantity?: number;
  /** The price times the quantity (absent: the price). */
  lineTotal?: number;
}

function priceOf(entry: PricedEntry): number {
  const price = entry.event ? entry.event.price : entry.plan?.price;
  return typeof price === 'number' && Number.isFinite(price) ? price : 0;
}

/** What the entry's line costs: its `lineTotal`, else its price (one ticket). */
function lineOf(entry: PricedEntry): number {
  return typeof entry.lineTotal === 'number' && Number.isFinite(entry.lineTotal) ? entry.lineTotal : priceOf(entry);
}

/** The total is the sum of the lines; a missing price counts as 0 (spec 3). */
export function cartTotal(entries: readonly PricedEntry[]): number {
  return entries.reduce((sum, entry) => sum + lineOf(entry), 0);
}

/** One ticket's price. */
export function entryPrice(entry: PricedEntry): number {
  return priceOf(entry);
}

/** The whole line's price (all its tickets). */
export function entryLineTotal(entry: PricedEntry): number {
  return lineOf(entry);
}

/** The most tickets of one concert in one order (the server's cap). */
export const MAX_TICKETS_PER_ORDER = 10;

/** "3 × Supporter" (the count in the reader's digits); the name alone for one. */
export function timesLabel(quantity: number, name: string, locale: string): string {
  return quantity > 1 ? `${new Intl.NumberFormat(locale).format(quantity)} × ${name}` : name;
}

export function entryCurrency(entry: PricedEntry): string {
  return (entry.event ? entry.event.currency : entry.plan?.currency) ?? 'EUR';
}

/** Decimal digits of a currency's minor unit (contract: 0 for JPY/KRW/CLP, 3 for KWD/BHD). */
export function currencyDigits(currency: string): number {
  const code = currency.toUpperCase();
  if (['JPY', 'KRW', 'CLP'].includes(code)) return 0;
  if (['KWD', 'BHD'].includes(code)) return 3;
  return 2;
}

export function formatPrice(minorUnits: number, currency: string, locale: string): string {
  const digits = currencyDigits(currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minorUnits / 10 ** digits);
}
