import { queryOptions } from '@tanstack/react-query';
import { getBankDetails, getPayoutAccount, getPeriodStatements, getProjectStatements } from './api';

export const statementKeys = {
  all: ['statements'] as const,
  project: (projectId: string, period: string) => ['statements', 'detail', projectId, period] as const,
  period: (period: string) => ['statements', 'list', period] as const,
  payoutAccount: (projectId: string) => ['statements', 'payout-account', projectId] as const,
  bank: (projectId: string) => ['statements', 'bank-details', projectId] as const,
};

export const projectStatementsQueryOptions = (projectId: string, period: string) =>
  queryOptions({ queryKey: statementKeys.project(projectId, period), queryFn: () => getProjectStatements(projectId, period) });

export const periodStatementsQueryOptions = (period: string) =>
  queryOptions({ queryKey: statementKeys.period(period), queryFn: () => getPeriodStatements(period) });

export const payoutAccountQueryOptions = (projectId: string) =>
  queryOptions({ queryKey: statementKeys.payoutAccount(projectId), queryFn: () => getPayoutAccount(projectId) });

export const bankDetailsQueryOptions = (projectId: string) =>
  queryOptions({ queryKey: statementKeys.bank(projectId), queryFn: () => getBankDetails(projectId) });
