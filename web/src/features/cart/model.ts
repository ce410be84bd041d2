/** Cart entries as the server sends them (docs/api-contract.md, "Cart, checkout, purchases"). */
export interface CartEvent {
  id: string;
  title?: string;
  artistName?: string;
  startsAt?: string;
  /** Minor units (cents); may be missing. */
  price?: number | null;
  currency?: string | null;
}

export interface CartPlan {
  id: string;
  name?: string;
  price?: number | null;
  currency?: string | null;
}

export interface CartEntry {
  kind?: 'event' | 'pass';
  event: CartEvent | null;
  plan?: CartPlan | null;
  addedAt?: string;
}

function priceOf(entry: CartEntry): number {
  const price = entry.event ? entry.event.price : entry.plan?.price;
  return typeof price === 'number' && Number.isFinite(price) ? price : 0;
}

/** The total is the sum of prices; a missing price counts as 0 (spec 3). */
export function cartTotal(entries: readonly CartEntry[]): number {
  return entries.reduce((sum, entry) => sum + priceOf(entry), 0);
}

export function entryPrice(entry: CartEntry): number {
  return priceOf(entry);
}

export function entryCurrency(entry: CartEntry): string {
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
