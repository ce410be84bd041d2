import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listProjects } from './api';

export const projectKeys = {
  all: ['projects'] as const,
  list: (page: number, pageSize: number) => ['projects', 'list', page, pageSize] as const,
};

export const projectListQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: projectKeys.list(page, pageSize), queryFn: () => listProjects(page, pageSize), placeholderData: keepPreviousData });

/** The projects a concert can belong to (the newest 100: the server's largest page). */
export const PROJECT_CHOICES = 100;
export const projectChoicesQueryOptions = () => projectListQueryOptions(1, PROJECT_CHOICES);
