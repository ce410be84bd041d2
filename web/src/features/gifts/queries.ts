import { queryOptions } from '@tanstack/react-query';
import { listMyTickets, lookAtGift } from './api';

export const ticketKeys = {
  all: ['tickets'] as const,
  mine: ['tickets', 'list', 'mine'] as const,
  gift: (token: string) => ['gifts', 'detail', token] as const,
};

export const myTicketsQueryOptions = () => queryOptions({ queryKey: ticketKeys.mine, queryFn: listMyTickets });

export const giftQueryOptions = (token: string) =>
  queryOptions({ queryKey: ticketKeys.gift(token), queryFn: () => lookAtGift(token), retry: false });
