import { cartTotal } from './model';

describe('cart total', () => {
  it('sums the prices of the events', () => {
    expect(cartTotal([{ event: { id: '1', price: 10 } }, { event: { id: '2', price: 2.5 } }])).toBe(12.5);
  });

  it('counts a missing price as 0', () => {
    expect(cartTotal([{ event: { id: '1', price: 10 } }, { event: { id: '2' } }, { event: { id: '3', price: null } }])).toBe(10);
  });

  it('is 0 for an empty cart', () => {
    expect(cartTotal([])).toBe(0);
  });
});
