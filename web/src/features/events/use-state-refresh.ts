import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ConcertState } from './model';
import { nextRefreshDelay } from './model';
import { eventKeys } from './queries';

/** Refetch the concerts shown when the soonest of their phases changes by the clock (the
 * server's `nextChangeAt`), so every page moves from upcoming to doors to live together. */
export function useStateRefresh(states: readonly Pick<ConcertState, 'nextChangeAt'>[]): void {
  const queryClient = useQueryClient();
  // One string, so that a refetch with the same times keeps the same timer.
  const times = states.map((state) => state.nextChangeAt ?? '').join('|');
  useEffect(() => {
    const delay = nextRefreshDelay(
      times.split('|').map((at) => ({ nextChangeAt: at || null })),
      Date.now(),
    );
    if (delay === null) return;
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: eventKeys.all });
    }, delay);
    return () => {
      clearTimeout(timer);
    };
  }, [times, queryClient]);
}
