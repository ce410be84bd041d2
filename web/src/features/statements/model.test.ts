import { currentPeriod, formatPercent, isPeriod, operatorLines, periodName, shiftPeriod, statementLines, typedPercent } from './model';

const STATEMENT = {
  projectId: 'p1',
  currency: 'EUR',
  ticketSales: 1800,
  tips: 0,
  passShares: 250,
  refunds: 900,
  paymentFees: 0,
  platformFeePercent: '10',
  platformFee: 115,
  net: 1035,
  paidOut: 0,
  paidByStripe: 0,
  owed: 1035,
  ticketSalesBeforeDiscounts: 1800,
  discounts: 0,
};

describe('statement periods', () => {
  it('are the UTC month of now, written 2026-11', () => {
    expect(currentPeriod(new Date('2026-11-30T23:59:00Z'))).toBe('2026-11');
    expect(currentPeriod(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });

  it('move a month back or forward across years', () => {
    expect(shiftPeriod('2026-01', -1)).toBe('2025-12');
    expect(shiftPeriod('2026-12', 1)).toBe('2027-01');
    expect(shiftPeriod('2026-11', 0)).toBe('2026-11');
  });

  it('accept only a month written as the server reads it', () => {
    expect([isPeriod('2026-11'), isPeriod('2026-13'), isPeriod('2026-1'), isPeriod(null), isPeriod('x')]).toEqual([true, false, false, false, false]);
  });
});

describe('a statement read top to bottom', () => {
  it('counts what went out negative, never -0, and ends on the net', () => {
    expect(statementLines(STATEMENT)).toEqual([
      { key: 'ticketSales', amount: 1800 },
      { key: 'passShares', amount: 250 },
      { key: 'refunds', amount: -900 },
      { key: 'paymentFees', amount: 0 },
      { key: 'platformFee', amount: -115 },
      { key: 'net', amount: 1035, total: true },
    ]);
    expect(Object.is(statementLines(STATEMENT)[3]?.amount, -0)).toBe(false);
  });

  it('shows tips under ticket sales where there were any', () => {
    expect(statementLines({ ...STATEMENT, tips: 500 }).slice(0, 2)).toEqual([
      { key: 'ticketSales', amount: 1800 },
      { key: 'tips', amount: 500 },
    ]);
  });

  it('shows the sales before promo codes and the discounts, then on to the same net', () => {
    const lines = statementLines({ ...STATEMENT, discounts: 200, ticketSalesBeforeDiscounts: 2000 });
    expect(lines.slice(0, 3)).toEqual([
      { key: 'ticketSalesBeforeDiscounts', amount: 2000 },
      { key: 'discounts', amount: -200 },
      { key: 'passShares', amount: 250 },
    ]);
    const net = lines.find((line) => line.key === 'net');
    expect(lines.filter((line) => !line.total).reduce((sum, line) => sum + line.amount, 0)).toBe(net?.amount);
  });

  it('adds what was paid out and what is still owed once there was a payout', () => {
    const lines = statementLines({ ...STATEMENT, paidOut: 1000, owed: 35 });
    expect(lines.slice(-2)).toEqual([
      { key: 'paidOut', amount: -1000 },
      { key: 'owed', amount: 35, total: true },
    ]);
  });

  it('adds what Stripe paid to a connected account, and what is still owed', () => {
    const lines = statementLines({ ...STATEMENT, paidByStripe: 1035, owed: 0 });
    expect(lines.slice(-2)).toEqual([
      { key: 'paidByStripe', amount: -1035 },
      { key: 'owed', amount: 0, total: true },
    ]);
  });

  it('gives the operator its five lines, refunds and fees negative', () => {
    const line = { currency: 'EUR', passSales: 1200, passRefunds: 300, passPaymentFees: 10, connectedPaymentFees: 0, unsharedPasses: 400, platformFees: 115 };
    expect(operatorLines(line).map((l) => l.amount)).toEqual([1200, -300, -10, 400, 115]);
  });
});

describe('percentages', () => {
  it('are written in the reader\'s digits', () => {
    expect(formatPercent('7.5', 'en-GB')).toBe('7.5%');
    expect(formatPercent('10', 'fa-IR')).toMatch(/^۱۰/);
  });

  it('are sent as the server reads them, whatever keyboard typed them', () => {
    expect(typedPercent(' 7.5 % ')).toBe('7.5');
    expect(typedPercent('۷٫۵')).toBe('7.5');
    expect(typedPercent('12,25')).toBe('12.25');
  });
});

describe("a period's name", () => {
  it('is the Gregorian month the statements are counted in', () => {
    expect(periodName('2026-11', 'en-GB')).toBe('November 2026');
  });

  it('in Persian, is the Solar Hijri days the Gregorian month spans, in Persian digits', () => {
    // 1 November 2026 is 10 Aban 1405; 30 November, 9 Azar.
    expect(periodName('2026-11', 'fa-IR')).toBe('۱۰ آبان تا ۹ آذر ۱۴۰۵');
    // March crosses Nowruz: a year on each end.
    expect(periodName('2026-03', 'fa-IR')).toBe('۱۰ اسفند ۱۴۰۴ تا ۱۱ فروردین ۱۴۰۵');
  });
});
