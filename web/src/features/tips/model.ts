/**
 * Tips during the show (docs/api-contract.md, "Tips during the show"): the shapes are the
 * document's own, and the rules the tip form follows, pure.
 */
import type { Schema } from '../../lib/api-types';

export type TipOptions = Schema<'TipOptions'>;
export type TipSettings = Schema<'TipSettings'>;
export type Tip = Schema<'Tip'>;
export type TipList = Schema<'TipList'>;

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
