import { API_PREFIX } from '../../lib/constants';
import { request } from '../../lib/http';
import type { Artist } from './model';

const base = `${API_PREFIX}/artists`;

/** An artist's public face, for everyone (no token: nothing in it depends on the reader). */
export const getArtist = (projectId: string): Promise<Artist> =>
  request<Artist>(`${base}/${encodeURIComponent(projectId)}`, { auth: false });
