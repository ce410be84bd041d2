import { CONTRAST_THRESHOLD } from './constants';

const DARK_TEXT = '#000000';
const LIGHT_TEXT = '#FFFFFF';

/** YIQ brightness (0–255) of a #rgb or #rrggbb colour. */
export function yiq(hex: string): number {
  let value = hex.replace('#', '').trim();
  if (value.length === 3) value = value.split('').map((c) => c + c).join('');
  const r = parseInt(value.slice(0, 2), 16);
  const g = parseInt(value.slice(2, 4), 16);
  const b = parseInt(value.slice(4, 6), 16);
  if ([r, g, b].some((n) => Number.isNaN(n))) return 255;
  return (r * 299 + g * 587 + b * 114) / 1000;
}

/** Text colour for a coloured surface: dark text when YIQ ≥ 150, light text otherwise. */
export function readableTextColor(background: string): string {
  return yiq(background) >= CONTRAST_THRESHOLD ? DARK_TEXT : LIGHT_TEXT;
}

function channels(hex: string): [number, number, number] {
  let value = hex.replace('#', '').trim();
  if (value.length === 3) value = value.split('').map((c) => c + c).join('');
  return [0, 2, 4].map((i) => parseInt(value.slice(i, i + 2), 16)) as [number, number, number];
}

const toHex = (rgb: readonly number[]): string => `#${rgb.map((n) => Math.round(n).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance (0–1) of a #rgb or #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((n) => {
    const s = n / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio (1–21) between two colours; AA asks 4.5 for text. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color` at `alpha` over `background`, as one opaque colour (a translucent surface as seen). */
export function blend(color: string, alpha: number, background: string): string {
  const top = channels(color);
  const bottom = channels(background);
  return toHex(top.map((c, i) => c * alpha + (bottom[i] ?? 0) * (1 - alpha)));
}

/** The lowest contrast of `color` over all `backgrounds`. */
export function worstContrast(color: string, backgrounds: readonly string[]): number {
  return Math.min(...backgrounds.map((background) => contrastRatio(color, background)));
}

/** The first of `candidates` at `ratio` on every one of `backgrounds`; else the one that comes closest. */
export function readableOn(candidates: readonly string[], backgrounds: readonly string[], ratio = 4.5): string {
  const found = candidates.find((candidate) => worstContrast(candidate, backgrounds) >= ratio);
  if (found) return found;
  return [...candidates].sort((a, b) => worstContrast(b, backgrounds) - worstContrast(a, backgrounds))[0] ?? '#000000';
}
