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
