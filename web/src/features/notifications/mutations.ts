import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markAllNotificationsRead, markNotificationRead } from './api';
import { notificationKeys } from './queries';

/** Mark one or all as read; both refresh every notifications list (menu and page). */
export function useNotificationMutations() {
  const queryClient = useQueryClient();
  const invalidate = (): Promise<void> => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  return {
    markOne: useMutation({ mutationFn: markNotificationRead, onSettled: invalidate }),
    markAll: useMutation({ mutationFn: markAllNotificationsRead, onSettled: invalidate }),
  };
}
