import { queryOptions } from '@tanstack/react-query';
import { eventListQueryOptions } from '../events/queries';
import { getArtist } from './api';
import { ARTIST_CONCERTS_PAGE_SIZE } from './model';

export const artistKeys = {
  all: ['artists'] as const,
  detail: (id: string) => ['artists', 'detail', id] as const,
};

export const artistQueryOptions = (id: string) => queryOptions({ queryKey: artistKeys.detail(id), queryFn: () => getArtist(id) });

/** An artist's public concerts (live first, then by start), a page at a time: the events
 * list narrowed to the project, under the events' keys (their refreshes reach it). */
export const artistConcertsQueryOptions = (projectId: string, page = 1) =>
  eventListQueryOptions({ page, pageSize: ARTIST_CONCERTS_PAGE_SIZE, project: projectId });
