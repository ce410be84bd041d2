import { promoInput, promoProblems, promoValues } from './model';

const base = { ...promoValues(null), code: 'spring-15' };

describe('promo code form', () => {
  it('sends a percentage, an amount in minor units (Persian digits too) or the tiers unlocked', () => {
    expect(promoInput({ ...base, percent: '15' }, 'EUR', null)).toMatchObject({ code: 'spring-15', kind: 'percent', value: 15, currency: null, tierIds: [] });
    expect(promoInput({ ...base, kind: 'amount', amount: '۲.۵۰' }, 'EUR', 'e1')).toMatchObject({ kind: 'amount', value: 250, currency: 'EUR', eventId: 'e1' });
    expect(promoInput({ ...base, kind: 'unlock', tierIds: ['t1'], maxUses: '3' }, 'EUR', 'e1')).toMatchObject({ kind: 'unlock', value: 0, tierIds: ['t1'], maxUses: 3, maxPerAccount: null });
  });

  it('names what is wrong before sending', () => {
    expect(promoProblems({ ...base, code: 'a b', percent: '0' }, 'EUR')).toEqual({ code: 'form.codeRule', percent: 'form.percentRule' });
    expect(promoProblems({ ...base, kind: 'amount', amount: 'x' }, 'EUR')).toEqual({ amount: 'form.amountRule' });
    expect(promoProblems({ ...base, kind: 'unlock' }, 'EUR')).toEqual({ tierIds: 'form.tiersRule' });
    expect(promoProblems({ ...base, percent: '10', maxUses: '0', validFrom: '2026-12-02T10:00', validUntil: '2026-12-01T10:00' }, 'EUR')).toEqual({
      maxUses: 'form.limitRule',
      validUntil: 'form.datesRule',
    });
  });
});
