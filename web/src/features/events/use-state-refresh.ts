import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ConcertState } from './model';
import { nextRefreshDelay } from './model';
import { eventKeys } from './queries';

/** Refetch the concerts shown when the soonest of their phases changes by the clock (the
 * server's `nextChangeAt`), so every page moves from upcoming to doors to live together;
 * every WAITING_POLL_MS while one waits for its artist. */
export function useStateRefresh(states: readonly Pick<ConcertState, 'nextChangeAt' | 'reason'>[]): void {
  const queryClient = useQueryClient();
  // One string, so that a refetch with the same times keeps the same timer.
  const times = states.map((state) => `${state.nextChangeAt ?? ''}~${state.reason ?? ''}`).join('|');
  useEffect(() => {
    const delay = nextRefreshDelay(
      times.split('|').map((entry) => {
        const [at, reason] = entry.split('~');
        return { nextChangeAt: at || null, reason: (reason || null) as ConcertState['reason'] };
      }),
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
