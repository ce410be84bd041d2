import { describe, expect, it } from 'vitest';
import { amountProblem, withTip } from './model';

describe('tip amounts', () => {
  it('says why an amount cannot be tipped', () => {
    const limits = { minimum: 100, maximum: 100_000 };
    expect(amountProblem(null, limits)).toBe('form.notANumber');
    expect(amountProblem(99, limits)).toBe('form.belowMinimum');
    expect(amountProblem(100_001, limits)).toBe('form.aboveMaximum');
    expect(amountProblem(100, limits)).toBeNull();
  });
});

describe('the panel list', () => {
  const tip = { id: 't2', eventId: 'c1', author: 'Ann B.', amount: 500, currency: 'EUR' as const, message: '', paidAt: '2026-11-27T18:00:00Z' };
  it('puts a pushed tip first, once, and adds it to its total', () => {
    const list = { tips: [{ ...tip, id: 't1', amount: 200 }], totals: [{ currency: 'EUR' as const, amount: 200, count: 1 }] };
    const next = withTip(list, tip);
    expect(next?.tips.map((t) => t.id)).toEqual(['t2', 't1']);
    expect(next?.totals).toEqual([{ currency: 'EUR', amount: 700, count: 2 }]);
    expect(withTip(next, tip)).toBe(next);
    expect(withTip(undefined, tip)).toBeUndefined();
  });
});
