/**
 * The room's open reports for its moderators (the artist's live panel): those made before
 * the panel opened (`GET /events/{id}/chat/reports`), then what the socket brings on the
 * concert's `event:<id>` channel (`chat_report`, and `chat_report_dismissed` when any
 * moderator dismissed one). A message deleted meanwhile takes its reports along.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useReducer } from 'react';
import { eventChannel } from '../live/socket-protocol';
import { useLiveChannel } from '../live/socket-provider';
import { dismissChatReport } from './api';
import type { ChatReport } from './model';
import { emptyLiveReports, liveReportsReducer, openReports } from './model';
import { openReportsQueryOptions, roomKeys } from './queries';
import type { RoomView } from './use-room';

export interface RoomReportsView {
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  /** Open, newest first. */
  reports: ChatReport[];
  /** Dismisses a report (its message stays), for every moderator. */
  dismiss: ReturnType<typeof useDismissReport>;
}

function useDismissReport(eventId: string, onDismissed: (reportId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reportId: string) => dismissChatReport(eventId, reportId),
    onSuccess: (_answer, reportId) => {
      onDismissed(reportId);
      // A line of the moderation log.
      void queryClient.invalidateQueries({ queryKey: roomKeys.moderation(eventId) });
    },
  });
}

/** Nothing is asked for until the room says the reader moderates it. */
export function useRoomReports(view: Pick<RoomView, 'eventId' | 'room' | 'deleted'>): RoomReportsView {
  const { eventId } = view;
  const queryClient = useQueryClient();
  const moderator = view.room?.you.moderator ?? false;
  const [live, dispatch] = useReducer(liveReportsReducer, undefined, emptyLiveReports);
  const pushed = useLiveChannel(moderator ? eventChannel(eventId) : null, (message) => {
    switch (message.type) {
      case 'chat_report':
        dispatch({ type: 'reported', report: message.report });
        break;
      case 'chat_report_dismissed':
        dispatch({ type: 'dismissed', reportId: message.reportId });
        // Another moderator's dismissal is a line of the log too.
        void queryClient.invalidateQueries({ queryKey: roomKeys.moderation(eventId) });
        break;
      case 'subscribed':
        // The history is gone (or this is the first subscribe): the open list again.
        if (!message.recovered) void queryClient.invalidateQueries({ queryKey: roomKeys.reports(eventId) });
        break;
      default:
        break;
    }
  });
  const query = useQuery({ ...openReportsQueryOptions(eventId, pushed), enabled: moderator });
  const dismiss = useDismissReport(eventId, (reportId) => {
    dispatch({ type: 'dismissed', reportId });
  });
  return {
    status: query.isPending ? 'loading' : query.isError ? 'error' : 'ready',
    error: query.error,
    reports: openReports(query.data, live, view.deleted),
    dismiss,
  };
}
