import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { COMPONENT_BREAKPOINTS } from '../lib/constants';
import { blend, contrastRatio } from '../lib/contrast';
import { cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const resolved = cssVariablesResolver(merged);
const SURFACES = { light: ['#ffffff', '#f1f3f5'], dark: ['#242424', '#2e2e2e'] } as const;

describe('the theme at WCAG AA', () => {
  for (const scheme of ['light', 'dark'] as const) {
    const vars = resolved[scheme];
    for (const name of Object.keys(merged.colors)) {
      it(`${scheme}: ${name} filled text, coloured text and light text reach 4.5:1`, () => {
        const filled = vars[`--mantine-color-${name}-filled`] ?? '';
        const on = vars[`--encore-on-${name}`] ?? '';
        expect(contrastRatio(on, filled)).toBeGreaterThanOrEqual(4.5);
        for (const surface of SURFACES[scheme]) {
          expect(contrastRatio(vars[`--mantine-color-${name}-text`] ?? '', surface)).toBeGreaterThanOrEqual(4.5);
          // A light button's edge stands out from the card (non-text contrast, 3:1).
          expect(contrastRatio(vars[`--encore-${name}-light-border`] ?? '', surface)).toBeGreaterThanOrEqual(3);
        }
        // Text on the colour's light surface (Mantine: shade 1 and 2; dark: shade 9 darkened by half).
        const tuple = merged.colors[name] ?? DEFAULT_THEME.colors.blue;
        const lightSurfaces = scheme === 'light' ? [tuple[1], tuple[2]] : [blend(tuple[9], 0.5, '#000000')];
        for (const surface of lightSurfaces) {
          expect(contrastRatio(vars[`--mantine-color-${name}-light-color`] ?? '', surface)).toBeGreaterThanOrEqual(4.5);
        }
      });
    }
    it(`${scheme}: dimmed text reaches 4.5:1 on the body and the cards`, () => {
      for (const surface of SURFACES[scheme]) expect(contrastRatio(vars['--mantine-color-dimmed'] ?? '', surface)).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('keeps the spec primaries and the YIQ text rule', () => {
    // Light: #154EC1 itself with white text; dark: #3472F0 gives white 4.4:1, so the
    // filled surface is the next shade and the text stays white (YIQ < 150).
    expect(resolved.light['--mantine-color-encore-filled']).toBe('#154EC1');
    expect(resolved.dark['--mantine-color-encore-filled']).toBe('#2a66e4');
    expect(resolved.dark['--encore-on-encore']).toBe('#FFFFFF');
  });

  it('keeps the LIVE badge red with white text in the dark scheme', () => {
    expect(merged.colors.red.slice(8)).toContain(resolved.dark['--mantine-color-red-filled']);
    expect(resolved.dark['--encore-on-red']).toBe('#FFFFFF');
  });
});

describe('responsive props', () => {
  it('never name the xs breakpoint: it is 0 (the spec\'s), so it would overrule `base` on every screen', () => {
    const sources = import.meta.glob('../**/*.tsx', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    const offenders = Object.entries(sources)
      .filter(([, text]) => /\{\s*base:[^{}]*\bxs:/.test(text))
      .map(([path]) => path);
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    expect(COMPONENT_BREAKPOINTS.xs).toBe(0);
    expect(offenders).toEqual([]);
  });
});
