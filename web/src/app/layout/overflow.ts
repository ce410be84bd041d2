/**
 * How many of a row's items fit in `available` pixels, in order, `gap` apart; when some do
 * not, room is kept for the overflow ("More") button of `moreWidth` at the end.
 */
export function fitCount(widths: readonly number[], available: number, gap: number, moreWidth: number): number {
  const total = widths.reduce((sum, width, i) => sum + width + (i > 0 ? gap : 0), 0);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let count = 0;
  for (const width of widths) {
    const next = used + gap + width;
    if (next > available) break;
    used = next;
    count += 1;
  }
  return count;
}
