import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import { getAuthStatus } from '../auth/session';
import type { Query } from '../../lib/api-types';
import type { EncoreEvent, EventChange, EventInput, EventPage, EventSales, LiveStatus, ManagedEvent, ManagedTier, Marker, MarkerChanges, MarkerInput, NewTierInput, StreamKeyInfo, TierChanges } from './model';

export type EventListQuery = Query<'events.list'> & Pick<Required<Query<'events.list'>>, 'page' | 'pageSize'>;

const base = `${API_PREFIX}/events`;
const id = (value: string): string => encodeURIComponent(value);

/** Public list: sent with the token when signed in (so `owned` is set), without otherwise. */
export const listEvents = (query: EventListQuery): Promise<EventPage> =>
  request<EventPage>(base, { query: { ...query }, auth: getAuthStatus().hasToken });

export const getEvent = (eventId: string): Promise<EncoreEvent> =>
  request<EncoreEvent>(`${base}/${id(eventId)}`, { auth: getAuthStatus().hasToken });

/** "Remind me when doors open" (PUT) and its withdrawal (DELETE): the concert, `reminder` set or not. */
export const askDoorsReminder = (eventId: string): Promise<EncoreEvent> =>
  request<EncoreEvent>(`${base}/${id(eventId)}/reminder`, { method: 'PUT' });
export const cancelDoorsReminder = (eventId: string): Promise<EncoreEvent> =>
  request<EncoreEvent>(`${base}/${id(eventId)}/reminder`, { method: 'DELETE' });

export const listManagedEvents = (): Promise<ManagedEvent[]> => request<ManagedEvent[]>(`${base}/manage`);
export const createEvent = (input: EventInput): Promise<EncoreEvent> =>
  request<EncoreEvent>(base, { method: 'POST', body: input });
export const updateEvent = (eventId: string, input: EventChange): Promise<EncoreEvent> =>
  request<EncoreEvent>(`${base}/${id(eventId)}`, { method: 'PUT', body: input });
export const publishEvent = (eventId: string): Promise<EncoreEvent> =>
  request<EncoreEvent>(`${base}/${id(eventId)}/publish`, { method: 'POST' });
export const cancelEvent = (eventId: string): Promise<EncoreEvent> =>
  request<EncoreEvent>(`${base}/${id(eventId)}/cancel`, { method: 'POST' });
export const deleteEvent = (eventId: string): Promise<unknown> =>
  request<unknown>(`${base}/${id(eventId)}`, { method: 'DELETE' });
export const getEventSales = (eventId: string): Promise<EventSales> => request<EventSales>(`${base}/${id(eventId)}/sales`);
export const getStreamKey = (eventId: string): Promise<StreamKeyInfo> => request<StreamKeyInfo>(`${base}/${id(eventId)}/stream-key`);
export const rotateStreamKey = (eventId: string): Promise<StreamKeyInfo> =>
  request<StreamKeyInfo>(`${base}/${id(eventId)}/stream-key/rotate`, { method: 'POST' });
export const getLiveStatus = (eventId: string): Promise<LiveStatus> => request<LiveStatus>(`${base}/${id(eventId)}/live`);
export const endShow = (eventId: string): Promise<LiveStatus> => request<LiveStatus>(`${base}/${id(eventId)}/end`, { method: 'POST' });

/** A show's song titles (markers), in timeline order; added, edited and deleted by its managers. */
export const listMarkers = (eventId: string): Promise<Marker[]> => request<Marker[]>(`${base}/${id(eventId)}/markers`);
export const addMarker = (eventId: string, input: MarkerInput): Promise<Marker> =>
  request<Marker>(`${base}/${id(eventId)}/markers`, { method: 'POST', body: input });
export const editMarker = (eventId: string, markerId: string, changes: MarkerChanges): Promise<Marker> =>
  request<Marker>(`${base}/${id(eventId)}/markers/${id(markerId)}`, { method: 'PUT', body: changes });
export const deleteMarker = (eventId: string, markerId: string): Promise<unknown> =>
  request<unknown>(`${base}/${id(eventId)}/markers/${id(markerId)}`, { method: 'DELETE' });

/** A concert's ticket tiers, hidden ones too, for its managers; added, changed and deleted by them. */
export const listTiers = (eventId: string): Promise<ManagedTier[]> => request<ManagedTier[]>(`${base}/${id(eventId)}/tiers`);
export const createTier = (eventId: string, input: NewTierInput): Promise<ManagedTier> =>
  request<ManagedTier>(`${base}/${id(eventId)}/tiers`, { method: 'POST', body: input });
export const updateTier = (eventId: string, tierId: string, changes: TierChanges): Promise<ManagedTier> =>
  request<ManagedTier>(`${base}/${id(eventId)}/tiers/${id(tierId)}`, { method: 'PUT', body: changes });
export const deleteTier = (eventId: string, tierId: string): Promise<unknown> =>
  request<unknown>(`${base}/${id(eventId)}/tiers/${id(tierId)}`, { method: 'DELETE' });

export function uploadEventImage(eventId: string, file: File): Promise<EncoreEvent> {
  const form = new FormData();
  form.append('file', file);
  return request<EncoreEvent>(`${base}/${id(eventId)}/image`, { method: 'POST', form });
}

/** The account's concerts (ticket or pass), each `owned` with its access state: live,
 * upcoming (soonest first), replay, then ended and cancelled (newest first). */
export const listMyEvents = (page: number, pageSize: number): Promise<EventPage> =>
  request<EventPage>(`${base}/mine`, { query: { page, pageSize } satisfies Query<'events.mine'> });
