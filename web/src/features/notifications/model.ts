import type { NotificationFilter } from './api';
import { NOTIFICATION_FILTERS } from './api';

export interface NotificationListParams {
  page: number;
  filter: NotificationFilter;
}

/** The notifications page's place from its address (`?page=2&filter=unread`); anything odd → page 1, all. */
export function readListParams(params: URLSearchParams): NotificationListParams {
  const page = Number(params.get('page'));
  const filter = params.get('filter');
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    filter: NOTIFICATION_FILTERS.find((f) => f === filter) ?? 'all',
  };
}

/** The address's query for a place (defaults left out). */
export function listParamsQuery({ page, filter }: NotificationListParams): Record<string, string> {
  return { ...(page > 1 ? { page: String(page) } : {}), ...(filter !== 'all' ? { filter } : {}) };
}

/** Number of pages (at least one) for `total` items. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
