export interface CartEvent {
  id: string;
  title?: string;
  price?: number | null;
}

export interface CartEntry {
  event: CartEvent;
}

/** The total is the sum of prices; a missing price counts as 0 (spec 3). */
export function cartTotal(entries: readonly CartEntry[]): number {
  return entries.reduce((sum, entry) => {
    const price = entry.event.price;
    return sum + (typeof price === 'number' && Number.isFinite(price) ? price : 0);
  }, 0);
}
