import { readableTextColor, yiq } from './contrast';
import { PRIMARY_DARK, PRIMARY_LIGHT } from './constants';

describe('text on coloured surfaces (YIQ, threshold 150)', () => {
  it('computes YIQ brightness', () => {
    expect(yiq('#ffffff')).toBe(255);
    expect(yiq('#000')).toBe(0);
  });

  it('uses light text on both primaries and dark text on light surfaces', () => {
    expect(readableTextColor(PRIMARY_LIGHT)).toBe('#FFFFFF');
    expect(readableTextColor(PRIMARY_DARK)).toBe('#FFFFFF');
    expect(readableTextColor('#ffd43b')).toBe('#000000');
  });

  it('switches exactly at 150', () => {
    // #969696 → 150; #959595 → 149
    expect(readableTextColor('#969696')).toBe('#000000');
    expect(readableTextColor('#959595')).toBe('#FFFFFF');
  });
});
