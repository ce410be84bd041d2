import { queryOptions } from '@tanstack/react-query';
import { getPeriodStatements, getProjectStatements } from './api';

export const statementKeys = {
  all: ['statements'] as const,
  project: (projectId: string, period: string) => ['statements', 'detail', projectId, period] as const,
  period: (period: string) => ['statements', 'list', period] as const,
};

export const projectStatementsQueryOptions = (projectId: string, period: string) =>
  queryOptions({ queryKey: statementKeys.project(projectId, period), queryFn: () => getProjectStatements(projectId, period) });

export const periodStatementsQueryOptions = (period: string) =>
  queryOptions({ queryKey: statementKeys.period(period), queryFn: () => getPeriodStatements(period) });
