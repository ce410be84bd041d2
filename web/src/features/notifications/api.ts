import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';

export interface AppNotification {
  id: string;
  type: 'message' | 'upload' | 'topic';
  title: string;
  body: string;
  sender: string | null;
  uploadType: string | null;
  read: boolean;
  createdAt: string;
  /** The dashboard page it opens when clicked (`/my-events`, `/payments/orders/<id>`…). */
  link?: string | null;
}

export interface NotificationPage {
  items: AppNotification[];
  total: number;
  unread: number;
  page: number;
  pageSize: number;
}

/** Which notifications a page lists (`total` counts that set; `unread` always counts all unread). */
export type NotificationFilter = 'all' | 'unread' | 'read';
export const NOTIFICATION_FILTERS: readonly NotificationFilter[] = ['all', 'unread', 'read'];

const BASE = `${API_PREFIX}/notifications`;

export const listNotifications = (page: number, pageSize: number, filter: NotificationFilter = 'all'): Promise<NotificationPage> =>
  request<NotificationPage>(BASE, { query: { page, pageSize, filter } });

export const markNotificationRead = (id: string): Promise<AppNotification> =>
  request<AppNotification>(`${BASE}/${encodeURIComponent(id)}/read`, { method: 'POST' });

export const markAllNotificationsRead = (): Promise<null> => request<null>(`${BASE}/read-all`, { method: 'POST' });
