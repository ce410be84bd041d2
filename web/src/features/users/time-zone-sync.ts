import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { browserTimeZone } from '../../lib/time-zone';
import { authKeys } from '../auth/queries';
import { updateAccount } from './api';
import type { User } from './model';

/** Accounts whose zone this page load has tried to save: one attempt each, so a zone the
 * server refuses (a tzdb older than the browser's) is not asked again and again. */
const attempted = new Set<string>();

/**
 * Keeps the signed-in account's time zone that of this browser, quietly: when they differ,
 * one update per page load, then "me" is read again (equal from then on: no loop). Equal
 * zones send nothing. A failure is left alone; the next load tries again.
 */
export function useTimeZoneSync(user: Pick<User, 'id' | 'timeZone'>): void {
  const queryClient = useQueryClient();
  const { id, timeZone } = user;
  useEffect(() => {
    const zone = browserTimeZone();
    if (zone === null || zone === timeZone || attempted.has(id)) return;
    attempted.add(id);
    updateAccount(id, { timeZone: zone })
      .then(() => queryClient.invalidateQueries({ queryKey: authKeys.me }))
      .catch(() => undefined);
  }, [id, timeZone, queryClient]);
}
