import { fitCount } from './overflow';

describe('the top menu overflow', () => {
  it('keeps every item when they all fit', () => {
    expect(fitCount([100, 80, 60], 248, 4, 70)).toBe(3);
    expect(fitCount([], 0, 4, 70)).toBe(0);
  });

  it('moves the items that do not fit behind the More button, keeping room for it', () => {
    // All three need 278; the first two fit beside More (70 + 4 + 100 + 4 + 80 = 258 ≤ 260).
    expect(fitCount([100, 80, 90], 260, 4, 70)).toBe(2);
    // One pixel short of all three: More takes the room of the last two.
    expect(fitCount([100, 80, 60], 247, 4, 70)).toBe(1);
  });

  it('shows only More when nothing else fits', () => {
    expect(fitCount([100, 80], 90, 4, 70)).toBe(0);
  });
});
