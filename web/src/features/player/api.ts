import { API_PREFIX } from '../../lib/constants';
import { probe, request } from '../../lib/http';
import type { Denial, ListeningStatus, StreamSession } from './model';
import { DENIED_HEADER, parseDenial } from './model';

/** POST /stream/{eventId}/session: a new session ends the previous one of the same ticket.
 * A 403 is the server's reason (not yet open, refunded, …), shown as is. */
export const createStreamSession = (eventId: string): Promise<StreamSession> =>
  request<StreamSession>(`${API_PREFIX}/stream/${encodeURIComponent(eventId)}/session`, { method: 'POST', forbiddenIsAnswer: true });

/** GET /stream/{eventId}/session: how many listen now (for the holder of a ticket). */
export const getListeningStatus = (eventId: string): Promise<ListeningStatus> =>
  request<ListeningStatus>(`${API_PREFIX}/stream/${encodeURIComponent(eventId)}/session`, { forbiddenIsAnswer: true });

export type PlaylistState = { kind: 'ready' } | { kind: 'waiting' } | { kind: 'denied'; denial: Denial } | { kind: 'error'; status: number };

/** Where the playlist stands: 200 ready, 404 the artist has not started, 403 denied (and why). */
export async function checkPlaylist(playlistUrl: string): Promise<PlaylistState> {
  const { status, headers } = await probe(playlistUrl, { timeoutMs: 10_000 });
  if (status >= 200 && status < 300) return { kind: 'ready' };
  if (status === 404) return { kind: 'waiting' };
  if (status === 403) return { kind: 'denied', denial: parseDenial(headers.get(DENIED_HEADER)) };
  return { kind: 'error', status };
}
