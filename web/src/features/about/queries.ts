import { queryOptions } from '@tanstack/react-query';
import { fetchAbout, fetchWebLicences } from './api';

export const aboutQueryOptions = () => queryOptions({ queryKey: ['about', 'server'], queryFn: fetchAbout, staleTime: Infinity });

export const webLicencesQueryOptions = () =>
  queryOptions({ queryKey: ['about', 'web-licences'], queryFn: fetchWebLicences, staleTime: Infinity, retry: false });
