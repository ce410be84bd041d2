import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { refreshConcertStates } from '../../events/queries';
import { useAccountChannel, useLiveChannel } from '../../live/socket-provider';
import type { AppNotification } from '../api';
import { addLiveNotification, isConcertLink } from '../live';
import { useNotificationMutations } from '../mutations';
import { notificationKeys } from '../queries';

/** Tells toasts apart in the page (end-to-end tests). */
const TOAST_ATTRIBUTES = { 'data-testid': 'live-toast' };

/**
 * The account's channel on the live socket: each new notification goes into the cached
 * lists (the bell's badge), pops up as a toast that opens its page when clicked, and, when it
 * is about a concert, refreshes the concerts shown (a card turns live). Renders nothing.
 */
export function LiveNotifications(): null {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { markOne } = useNotificationMutations();

  const open = (item: AppNotification): void => {
    notifications.hide(item.id);
    if (!item.read) markOne.mutate(item.id);
    if (item.link) void navigate(item.link);
  };

  useLiveChannel(useAccountChannel(), (message) => {
    if (message.type === 'subscribed') {
      // Missed ones the server could not replay: the lists come again over HTTP.
      if (!message.recovered) void client.invalidateQueries({ queryKey: notificationKeys.all });
      return;
    }
    if (message.type !== 'notification') return;
    const item = message.notification;
    addLiveNotification(client, item);
    if (isConcertLink(item.link)) void refreshConcertStates(client);
    notifications.show({
      ...TOAST_ATTRIBUTES,
      id: item.id,
      title: item.title,
      // A topic's title says it all when it has no body; other kinds name themselves.
      message: item.body || (item.type === 'topic' ? null : t(`notifications.type.${item.type}`)),
      style: { cursor: 'pointer' },
      onClick: (event) => {
        // The toast's own close button only closes it.
        if ((event.target as HTMLElement).closest('button')) return;
        open(item);
      },
    });
  });
  return null;
}
