/**
 * Tips during the show (docs/api-contract.md, "Tips during the show"): the shapes are the
 * document's own, and the rules the tip form follows, pure.
 */
import type { Schema } from '../../lib/api-types';

export type TipOptions = Schema<'TipOptions'>;
export type Tip = Schema<'Tip'>;
export type TipList = Schema<'TipList'>;

/** Persian (U+06F0…) and Arabic-Indic (U+0660…) digits, and their decimal separators, as
 * ASCII: what a Persian keyboard types is read as the number it shows. */
export function latinDigits(text: string): string {
  return text
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u066B\u060C,]/g, '.')
    .replace(/\u066C/g, '');
}

/** An amount typed in major units (`12.5`, `۱۲٫۵`) → minor units; null when it is not a
 * number with at most the currency's decimals. */
export function parseAmount(typed: string, digits: number): number | null {
  const text = latinDigits(typed.trim());
  const pattern = digits > 0 ? new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`) : /^\d+$/;
  if (!pattern.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** Why an amount cannot be tipped (a key of the `tips` namespace), or null. */
export function amountProblem(amount: number | null, options: Pick<TipOptions, 'minimum' | 'maximum'>): 'form.notANumber' | 'form.belowMinimum' | 'form.aboveMaximum' | null {
  if (amount === null) return 'form.notANumber';
  if (amount < options.minimum) return 'form.belowMinimum';
  if (amount > options.maximum) return 'form.aboveMaximum';
  return null;
}

/** A paid tip pushed on the artist's panel: the newest first, each once. */
export function withTip(list: TipList | undefined, tip: Tip): TipList | undefined {
  if (!list || list.tips.some((t) => t.id === tip.id)) return list;
  const totals = list.totals.some((t) => t.currency === tip.currency)
    ? list.totals.map((t) => (t.currency === tip.currency ? { ...t, amount: t.amount + tip.amount, count: t.count + 1 } : t))
    : [...list.totals, { currency: tip.currency, amount: tip.amount, count: 1 }];
  return { tips: [tip, ...list.tips], totals };
}
