import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listProjects } from './api';

export const projectKeys = {
  all: ['projects'] as const,
  list: (page: number, pageSize: number) => ['projects', 'list', page, pageSize] as const,
};

export const projectListQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: projectKeys.list(page, pageSize), queryFn: () => listProjects(page, pageSize), placeholderData: keepPreviousData });
