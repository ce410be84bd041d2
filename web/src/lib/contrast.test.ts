import { blend, contrastRatio, readableOn, readableTextColor, relativeLuminance, yiq } from './contrast';
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

describe('WCAG contrast', () => {
  it('measures the ratio of the extremes and of known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // #767676 on white is the classic AA limit (4.54:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(relativeLuminance('#fff')).toBe(1);
  });

  it('finds white on the dark preset primary just short of AA, and on the light one well above', () => {
    expect(contrastRatio('#ffffff', PRIMARY_DARK)).toBeLessThan(4.5);
    expect(contrastRatio('#ffffff', PRIMARY_LIGHT)).toBeGreaterThan(7);
  });

  it('blends a translucent colour over its background', () => {
    expect(blend('#ffffff', 0.5, '#000000')).toBe('#808080');
    expect(blend('#ff0000', 0, '#123456')).toBe('#123456');
  });

  it('picks the first candidate readable on every background, else the closest', () => {
    expect(readableOn(['#ff8787', '#fa5252', '#c92a2a'], ['#ffffff'])).toBe('#c92a2a');
    // #767676 passes on white but not on gray 1; #6b6b6b passes on both.
    expect(readableOn(['#767676', '#6b6b6b'], ['#ffffff', '#f1f3f5'])).toBe('#6b6b6b');
    expect(readableOn(['#eeeeee', '#dddddd'], ['#ffffff'])).toBe('#dddddd');
    expect(readableOn(['#ffffff'], ['#000000'], 3)).toBe('#ffffff');
  });
});
