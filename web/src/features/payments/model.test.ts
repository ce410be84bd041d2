import { describe, expect, it } from 'vitest';
import { changeTone, customPeriod, stateInWords, wasPaid } from './model';

describe('customPeriod', () => {
  it('runs from the first day\'s local midnight to the midnight after the last day', () => {
    const period = customPeriod(new Date(2026, 0, 1, 15, 30), new Date(2026, 0, 7, 9));
    expect(period).toEqual({ from: new Date(2026, 0, 1).toISOString(), to: new Date(2026, 0, 8).toISOString() });
  });

  it('is one whole day when the first day is the last', () => {
    const period = customPeriod(new Date(2026, 1, 28), new Date(2026, 1, 28));
    if (!('from' in period)) throw new Error('a custom period');
    expect(Date.parse(period.to) - Date.parse(period.from)).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(period.to).toBe(new Date(2026, 2, 1).toISOString());
  });
});

describe('changeTone', () => {
  it('says up, down, flat, or new when there was nothing before', () => {
    expect(changeTone(12.5)).toBe('up');
    expect(changeTone(-3)).toBe('down');
    expect(changeTone(0)).toBe('flat');
    expect(changeTone(null)).toBe('new');
  });
});

describe('wasPaid', () => {
  it('is true only where money was taken: paid, fulfilled, refunded', () => {
    expect(['paid', 'fulfilled', 'refunded'].every((status) => wasPaid({ status: status as 'paid' }))).toBe(true);
    expect(['pending', 'failed', 'expired'].some((status) => wasPaid({ status: status as 'pending' }))).toBe(false);
  });
});

describe('stateInWords', () => {
  it('says a fulfilled order is paid, and every other state as it is', () => {
    expect(stateInWords('fulfilled')).toBe('paid');
    expect(stateInWords('failed')).toBe('failed');
    expect(stateInWords('expired')).toBe('expired');
  });
});
