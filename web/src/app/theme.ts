import { ActionIcon, Badge, Button, createTheme, defaultVariantColorsResolver, parseThemeColor, rem } from '@mantine/core';
import type { CSSVariablesResolver, MantineColorsTuple, MantineTheme, VariantColorsResolver } from '@mantine/core';
import { COMPONENT_BREAKPOINTS, PRIMARY_DARK, PRIMARY_LIGHT } from '../lib/constants';
import { blend, contrastRatio, readableOn, readableTextColor } from '../lib/contrast';

/** WCAG AA for text, and for the edges of controls (1.4.11). */
const AA = 4.5;
const NON_TEXT = 3;

/** Encore blue: shade 7 is the light preset's primary, shade 4 the dark preset's. */
const encore: MantineColorsTuple = [
  '#e7efff',
  '#cfdcfc',
  '#9eb8f6',
  '#6a93f2',
  PRIMARY_DARK,
  '#2a66e4',
  '#1d5bd3',
  PRIMARY_LIGHT,
  '#0f3e9c',
  '#0a2d73',
];

const em = (px: number): string => `${String(px / 16)}em`;

/** Filled surfaces take their text colour (YIQ, spec 9) and shade from the scheme's
 * variables below. */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  const named = parsed.isThemeColor && parsed.shade === undefined ? parsed.color : null;
  if (input.variant === 'filled') {
    if (named) return { ...colors, color: `var(--encore-on-${named})` };
    if (parsed.isThemeColor) {
      const hex = input.theme.colors[parsed.color]?.[parsed.shade ?? 6];
      if (hex) return { ...colors, color: readableTextColor(hex) };
    }
    if (parsed.value.startsWith('#')) return { ...colors, color: readableTextColor(parsed.value) };
    return colors;
  }
  return colors;
};

/** A light button's edge, at 3:1 against the card (its tinted surface alone is 1.3:1 in
 * the dark scheme: navy on grey). */
function lightBorder(theme: MantineTheme, variant: string | undefined, color: string | undefined): string | undefined {
  if (variant !== 'light') return undefined;
  const parsed = parseThemeColor({ color: color ?? theme.primaryColor, theme });
  return parsed.isThemeColor && parsed.shade === undefined ? `${rem(1)} solid var(--encore-${parsed.color}-light-border)` : undefined;
}

export const theme = createTheme({
  primaryColor: 'encore',
  primaryShade: { light: 7, dark: 4 },
  colors: { encore },
  breakpoints: {
    xs: em(COMPONENT_BREAKPOINTS.xs),
    sm: em(COMPONENT_BREAKPOINTS.sm),
    md: em(COMPONENT_BREAKPOINTS.md),
    lg: em(COMPONENT_BREAKPOINTS.lg),
    xl: em(COMPONENT_BREAKPOINTS.xl),
  },
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans SC", "Vazirmatn", Tahoma, sans-serif',
  defaultRadius: 'md',
  radius: { md: rem(8) },
  variantColorResolver,
  components: {
    // A badge is a word or two: never cut to "LIVE N…" by a crowded row or a narrow cell.
    Button: Button.extend({
      vars: (theme, props) => ({ root: { '--button-bd': lightBorder(theme, props.variant, props.color) } }),
    }),
    ActionIcon: ActionIcon.extend({
      vars: (theme, props) => ({ root: { '--ai-bd': lightBorder(theme, props.variant, props.color) } }),
    }),
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, minWidth: 'max-content', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    }),
  },
});

/** The surfaces text sits on: Mantine's body and card (light: white and gray 1). */
const SURFACES = { light: ['#ffffff', '#f1f3f5'], dark: ['#242424', '#2e2e2e'] } as const;
type Scheme = keyof typeof SURFACES;

/** Ten steps from `from` to `to`. */
const ramp = (from: string, to: string): string[] => Array.from({ length: 11 }, (_, i) => blend(to, i / 10, from));

/** A filled surface: from the scheme's shade toward darker, the first whose YIQ-chosen text
 * reaches AA (the dark preset's #3472F0 gives white only 4.4:1). */
function filled(tuple: MantineColorsTuple, from: number): { bg: string; hover: string; text: string } {
  const at = (shade: number, text: (bg: string) => string): { bg: string; hover: string; text: string } | null => {
    const bg = tuple[shade] ?? '#000000';
    const chosen = text(bg);
    return contrastRatio(chosen, bg) >= AA ? { bg, hover: tuple[Math.min(shade + 1, 9)] ?? bg, text: chosen } : null;
  };
  for (let shade = from; shade <= 9; shade += 1) {
    const found = at(shade, readableTextColor);
    if (found) return found;
  }
  // Where YIQ's choice never reaches AA (green, lime, orange: white stays under 4.5:1 down
  // to shade 9), the other text colour does, on the scheme's own shade.
  const other = (bg: string): string => (readableTextColor(bg) === '#FFFFFF' ? '#000000' : '#FFFFFF');
  for (let shade = from; shade <= 9; shade += 1) {
    const found = at(shade, other);
    if (found) return found;
  }
  return { bg: tuple[9], hover: tuple[8], text: readableTextColor(tuple[9]) };
}

/** Every theme colour's variables for one scheme, each text colour at AA on its surface. */
function colorVariables(theme: MantineTheme, scheme: Scheme): Record<string, string> {
  const surfaces = SURFACES[scheme];
  const variables: Record<string, string> = {};
  for (const [name, tuple] of Object.entries(theme.colors)) {
    // Dark: the primary from its preset shade; other colours from 6, so a LIVE badge stays
    // red with white text rather than pink with black.
    const fill = filled(tuple, scheme === 'light' ? 7 : name === theme.primaryColor ? 4 : 6);
    variables[`--mantine-color-${name}-filled`] = fill.bg;
    variables[`--mantine-color-${name}-filled-hover`] = fill.hover;
    variables[`--encore-on-${name}`] = fill.text;
    if (scheme === 'light') {
      // Text in the colour (c="red", links), and on its light surface (shade 1, hover 2).
      variables[`--mantine-color-${name}-text`] = readableOn([tuple[7], tuple[8], ...ramp(tuple[9], '#000000')], surfaces);
      variables[`--mantine-color-${name}-light-color`] = readableOn(ramp(tuple[9], '#000000'), [tuple[1], tuple[2]]);
      variables[`--encore-${name}-light-border`] = readableOn([tuple[5], tuple[6], tuple[7], tuple[8], ...ramp(tuple[9], '#000000')], surfaces, NON_TEXT);
    } else {
      const light = blend(tuple[9], 0.5, '#000000');
      variables[`--mantine-color-${name}-text`] = readableOn([tuple[4], tuple[3], tuple[2], tuple[1], tuple[0]], surfaces);
      variables[`--mantine-color-${name}-light-color`] = readableOn([tuple[0], ...ramp(tuple[0], '#ffffff')], [light]);
      variables[`--encore-${name}-light-border`] = readableOn([tuple[6], tuple[5], tuple[4], tuple[3], tuple[2], ...ramp(tuple[1], '#ffffff')], surfaces, NON_TEXT);
    }
  }
  const primary = theme.primaryColor;
  variables['--encore-on-primary'] = `var(--encore-on-${primary})`;
  variables['--mantine-color-anchor'] = `var(--mantine-color-${primary}-text)`;
  // Secondary text (c="dimmed", breadcrumbs): Mantine's gray 6 / dark 2 are 3.3–4.0:1.
  variables['--mantine-color-dimmed'] =
    scheme === 'light'
      ? readableOn(ramp(theme.colors.gray[6], theme.colors.gray[8]), surfaces)
      : readableOn(ramp(theme.colors.dark[2], theme.colors.dark[0]), surfaces);
  return variables;
}

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: colorVariables(resolved, 'light'),
  dark: colorVariables(resolved, 'dark'),
});
