import { API_PREFIX } from '../../lib/constants';
import type { Query, Schema } from '../../lib/api-types';
import { request } from '../../lib/http';

export type AppNotification = Schema<'Notification'>;

export type NotificationPage = Schema<'NotificationPage'>;

/** Which notifications a page lists (`total` counts that set; `unread` always counts all unread). */
export type NotificationFilter = NonNullable<Query<'notifications.list'>['filter']>;
export const NOTIFICATION_FILTERS: readonly NotificationFilter[] = ['all', 'unread', 'read'];

const BASE = `${API_PREFIX}/notifications`;

export const listNotifications = (page: number, pageSize: number, filter: NotificationFilter = 'all'): Promise<NotificationPage> =>
  request<NotificationPage>(BASE, { query: { page, pageSize, filter } satisfies Query<'notifications.list'> });

export const markNotificationRead = (id: string): Promise<AppNotification> =>
  request<AppNotification>(`${BASE}/${encodeURIComponent(id)}/read`, { method: 'POST' });

export const markAllNotificationsRead = (): Promise<null> => request<null>(`${BASE}/read-all`, { method: 'POST' });
