import { cartTotal, currencyDigits, entryLineTotal, entryPrice, formatPrice, timesLabel } from './model';

describe('cart total', () => {
  it('sums the prices of the entries', () => {
    expect(cartTotal([{ event: { id: '1', price: 1000 } }, { event: { id: '2', price: 250 } }])).toBe(1250);
  });

  it('counts a missing price as 0', () => {
    expect(
      cartTotal([{ event: { id: '1', price: 1000 } }, { event: { id: '2' } }, { event: { id: '3', price: null } }, { event: null }]),
    ).toBe(1000);
  });

  it('counts passes by their plan price', () => {
    expect(cartTotal([{ kind: 'pass', event: null, plan: { id: 'p', price: 500 } }, { event: { id: '1', price: 100 } }])).toBe(600);
  });

  it('is 0 for an empty cart', () => {
    expect(cartTotal([])).toBe(0);
  });
});

describe('prices in minor units', () => {
  it('knows the digits of each currency', () => {
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('jpy')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
  });

  it('formats for the chosen language', () => {
    expect(formatPrice(1999, 'EUR', 'en-GB')).toBe('€19.99');
    expect(formatPrice(1500, 'JPY', 'en-GB')).toBe('JP¥1,500');
    expect(formatPrice(1234, 'KWD', 'en-GB')).toBe('KWD\u00a01.234');
    expect(formatPrice(0, 'USD', 'en-GB')).toBe('US$0.00');
    expect(formatPrice(1999, 'EUR', 'pt-BR')).toBe('€\u00a019,99');
  });
});

describe('quantities', () => {
  it('adds up line totals, a line without one counting its price once', () => {
    const three = { event: { price: 2500, currency: 'EUR' }, quantity: 3, lineTotal: 7500 };
    const one = { event: { price: 1500, currency: 'EUR' } };
    expect(cartTotal([three, one])).toBe(9000);
    expect(entryLineTotal(three)).toBe(7500);
    expect(entryPrice(three)).toBe(2500);
  });

  it('says "3 × Supporter" in the reader\'s digits, and the name alone for one', () => {
    expect(timesLabel(3, 'Supporter', 'en-GB')).toBe('3 × Supporter');
    expect(timesLabel(1, 'Supporter', 'en-GB')).toBe('Supporter');
    expect(timesLabel(3, 'حامی', 'fa-IR')).toBe('۳ × حامی');
  });
});
