import { queryOptions } from '@tanstack/react-query';
import { toUser } from '../users/model';
import { fetchMe, getQrRequest } from './api';

export const authKeys = {
  me: ['accounts', 'me'] as const,
  qr: (id: string) => ['oauth', 'qr', id] as const,
};

export const meQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me,
    queryFn: async () => toUser(await fetchMe()),
    staleTime: 60_000,
    retry: false,
  });

export const qrRequestQueryOptions = (id: string) =>
  queryOptions({ queryKey: authKeys.qr(id), queryFn: () => getQrRequest(id), retry: false });
