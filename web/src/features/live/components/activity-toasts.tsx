import { ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useLiveChannel } from '../socket-provider';
import { activityIcon, useActivityText } from './live-page-feed';

/** Tells toasts apart in the page (end-to-end tests), as the notifications' own. */
const TOAST_ATTRIBUTES = { 'data-testid': 'live-toast', 'data-kind': 'activity' };

/**
 * Staff activity (sign-ups, sales, refunds, shows) as it happens, as toasts: stored once for
 * all staff and read in the Live page's feed, not as notifications of each staff member's
 * own. Clicking one opens the Live page; on the Live page the feed shows them instead.
 * Rendered for staff only. Renders nothing itself.
 */
export function ActivityToasts(): null {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const text = useActivityText();
  useLiveChannel('staff', (message): void => {
    if (message.type !== 'activity' || pathname === '/live') return;
    const { activity } = message;
    const { icon: Icon, color } = activityIcon(activity.kind);
    notifications.show({
      ...TOAST_ATTRIBUTES,
      id: activity.id,
      title: text(activity),
      message: null,
      icon: (
        <ThemeIcon variant="light" color={color} radius="xl" size="md">
          <Icon size={16} />
        </ThemeIcon>
      ) as ReactNode,
      style: { cursor: 'pointer' },
      onClick: (event) => {
        if ((event.target as HTMLElement).closest('button')) return;
        notifications.hide(activity.id);
        void navigate('/live');
      },
    });
  });
  return null;
}
