import { createTheme, defaultVariantColorsResolver, parseThemeColor, rem } from '@mantine/core';
import type { CSSVariablesResolver, MantineColorsTuple, VariantColorsResolver } from '@mantine/core';
import { COMPONENT_BREAKPOINTS, PRIMARY_DARK, PRIMARY_LIGHT } from '../lib/constants';
import { readableTextColor } from '../lib/contrast';

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

/** Filled surfaces pick their text colour by the YIQ threshold of spec 9. */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (parsed.isThemeColor && parsed.color === input.theme.primaryColor && parsed.shade === undefined) {
    return { ...colors, color: 'var(--encore-on-primary)' };
  }
  if (parsed.isThemeColor) {
    const tuple = input.theme.colors[parsed.color];
    const hex = tuple?.[parsed.shade ?? 6];
    if (hex) return { ...colors, color: readableTextColor(hex) };
  }
  if (parsed.value.startsWith('#')) return { ...colors, color: readableTextColor(parsed.value) };
  return colors;
};

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
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--encore-on-primary': readableTextColor(PRIMARY_LIGHT) },
  dark: { '--encore-on-primary': readableTextColor(PRIMARY_DARK) },
});
