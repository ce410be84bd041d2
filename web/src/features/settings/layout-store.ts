import { useSyncExternalStore } from 'react';
import { LAYOUT_STORAGE_KEY } from '../../lib/constants';

/** Navigation layout choice: side bar (default) or top bar. */
export type NavigationLayout = 'side' | 'top';

const listeners = new Set<() => void>();

function read(): NavigationLayout {
  try {
    return localStorage.getItem(LAYOUT_STORAGE_KEY) === 'top' ? 'top' : 'side';
  } catch {
    return 'side';
  }
}

let current: NavigationLayout = read();

export function setNavigationLayout(layout: NavigationLayout): void {
  current = layout;
  try {
    localStorage.setItem(LAYOUT_STORAGE_KEY, layout);
  } catch {
    // storage unavailable: the choice lasts for this visit
  }
  for (const listener of listeners) listener();
}

export function useNavigationLayout(): NavigationLayout {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => current,
  );
}
