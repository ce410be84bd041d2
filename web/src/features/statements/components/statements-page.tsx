import { Alert, Button, Group, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { isStaff } from '../../../lib/roles';
import { meQueryOptions } from '../../auth/queries';
import { saveFile } from '../../payments/download';
import { projectChoicesQueryOptions } from '../../projects/queries';
import { exportProjectStatements } from '../api';
import { currentPeriod, isPeriod, payoutsOf, periodName } from '../model';
import type { Period } from '../model';
import { projectStatementsQueryOptions } from '../queries';
import { GetPaid } from './get-paid';
import { PayoutsList } from './payouts-list';
import { PlatformFeeForm } from './platform-fee-form';
import { StatementCard } from './statement-card';
import { StatementsMonthPicker } from './statements-month-picker';
import { StatementsOperator } from './statements-operator';
import './statements.css';

/** What the server names a statement's CSV: `encore-statement-2026-11-<project>.csv`. */
const csvName = (period: Period, projectId: string): string => `encore-statement-${period}-${projectId.replace(/[^A-Za-z0-9]/g, '')}.csv`;

/** Artists' statements: for a month (UTC) and a project (staff: any; a member: their own),
 * one card per currency from ticket sales to the net due, then the month's payouts; as CSV
 * and printable. Staff also record payouts, see the operator's lines and set the project's
 * platform fee. The month and the project
 * are in the address (`?month=2026-11&project=…`), so a statement can be linked to. */
export function StatementsPage(): ReactNode {
  const { t, i18n } = useTranslation('statements');
  const locale = localeOf(i18n.language);
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const staff = isStaff(me.role);
  const [params, setParams] = useSearchParams();
  const latest = currentPeriod();
  const asked = params.get('month');
  const period: Period = isPeriod(asked) ? asked : latest;
  const projects = useQuery(projectChoicesQueryOptions());
  const items = projects.data?.items ?? [];
  const project = items.find((item) => item.id === params.get('project')) ?? items[0] ?? null;
  const statements = useQuery({ ...projectStatementsQueryOptions(project?.id ?? '', period), enabled: project !== null });
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const month = periodName(period, locale);

  const choose = (changes: { month?: Period; project?: string }): void => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (changes.month) next.set('month', changes.month);
        if (changes.project) next.set('project', changes.project);
        return next;
      },
      { replace: true },
    );
  };
  const download = (): void => {
    if (!project) return;
    setDownloading(true);
    setDownloadFailed(false);
    exportProjectStatements(project.id, period)
      .then((blob) => { saveFile(blob, csvName(period, project.id)); })
      .catch(() => { setDownloadFailed(true); })
      .finally(() => { setDownloading(false); });
  };

  const list = statements.data?.statements ?? [];
  return (
    <Stack gap="lg">
      <div data-print="hide">
        <PageHeader
          title={t('title')}
          description={t('intro')}
          actions={
            <Group gap="sm">
              <Button leftSection={<IconDownload size={16} />} variant="default" loading={downloading} disabled={!project} onClick={download} data-testid="statements-download">
                {t('actions.download')}
              </Button>
              <Button leftSection={<IconPrinter size={16} />} variant="default" disabled={!project} onClick={() => { window.print(); }} data-testid="statements-print">
                {t('actions.print')}
              </Button>
            </Group>
          }
        />
        {downloadFailed ? (
          <Alert color="red" mb="md" data-testid="statements-download-failed">
            {t('actions.downloadFailed')}
          </Alert>
        ) : null}
        <Group gap="md" align="flex-end">
          <StatementsMonthPicker period={period} latest={latest} onChange={(next) => { choose({ month: next }); }} />
          <Select
            label={t('project.label')}
            data={items.map((item) => ({ value: item.id, label: item.name }))}
            value={project?.id ?? null}
            onChange={(id) => { if (id) choose({ project: id }); }}
            allowDeselect={false}
            searchable={items.length > 8}
            disabled={items.length === 0}
            comboboxProps={{ withinPortal: true }}
            w={{ base: '100%', sm: 280 }}
            data-testid="statements-project"
          />
        </Group>
      </div>

      {projects.isPending ? <Skeleton h={240} /> : null}
      {projects.isError ? <Alert color="red">{errorText(projects.error, t)}</Alert> : null}
      {projects.isSuccess && !project ? <EmptyState title={t('project.none')} description={staff ? t('project.noneStaff') : undefined} /> : null}

      {project ? (
        <div className="encore-statements" data-testid="statements">
          <Title order={2} size="h3" mb="md" className="encore-statements-printed" data-testid="statements-printed-title">
            {t('printed', { project: project.name, month })}
          </Title>
          {statements.isPending ? <Skeleton h={240} /> : null}
          {statements.isError ? <Alert color="red">{errorText(statements.error, t)}</Alert> : null}
          {statements.isSuccess && list.length === 0 ? <EmptyState title={t('empty.title')} description={t('empty.description', { project: project.name, month })} /> : null}
          {list.length > 0 ? (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {list.map((statement) => (
                <StatementCard key={`${project.id}/${period}/${statement.currency}`} statement={statement} payouts={staff ? { projectId: project.id, period } : undefined} />
              ))}
            </SimpleGrid>
          ) : null}
          {statements.isSuccess ? <PayoutsList payouts={payoutsOf(statements.data)} month={month} /> : null}
          {list.length > 0 ? (
            <Text size="xs" c="dimmed" mt="sm">
              {t('note')}
            </Text>
          ) : null}
        </div>
      ) : null}

      {project ? (
        <div data-print="hide">
          <GetPaid key={project.id} projectId={project.id} />
        </div>
      ) : null}

      {staff && project ? (
        <Stack gap="lg" data-print="hide">
          <PlatformFeeForm key={project.id} projectId={project.id} projectName={project.name} inForce={list[0]?.platformFeePercent ?? null} />
          <StatementsOperator period={period} />
        </Stack>
      ) : null}
    </Stack>
  );
}
