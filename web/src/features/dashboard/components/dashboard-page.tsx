import { Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { formatNumber } from '../../../i18n/numbers';
import { PageHeader } from '../../../components/page-header';
import { meQueryOptions } from '../../auth/queries';
import { UserAvatar } from '../../users/components/user-avatar';
import { accountStatsQueryOptions } from '../../users/queries';
import { NextConcerts, SalesPerConcert } from './dashboard-commerce';
import { LiveNow, RecentOrders, SalesFigures } from './dashboard-sales';
import { isStaff } from '../../../lib/roles';

/** The chart library is heavy: it loads only when an admin's figures are on screen. */
const SignupsChart = lazy(() => import('./signups-chart'));

function Figure({ label, value, testId }: { label: string; value: number; testId?: string }): ReactNode {
  const { i18n } = useTranslation();
  return (
    <Card withBorder padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={28} fw={800} data-testid={testId}>
        {formatNumber(value, i18n.language)}
      </Text>
    </Card>
  );
}

function AccountFigures(): ReactNode {
  const { t } = useTranslation('dashboard');
  const { data, isPending, isError } = useQuery(accountStatsQueryOptions());
  if (isError) return <Text c="red">{t('stats.loadFailed')}</Text>;
  if (isPending) return <Skeleton h={120} />;
  return (
    <Stack gap="md">
      <Title order={3}>{t('stats.title')}</Title>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }}>
        <Figure label={t('stats.users')} value={data.byRole.user} testId="stat-users" />
        <Figure label={t('stats.admins')} value={data.byRole.admin} />
        <Figure label={t('stats.superAdmins')} value={data.byRole.sa} />
        <Figure label={t('stats.enabled')} value={data.enabled} />
        <Figure label={t('stats.disabled')} value={data.disabled} />
        <Figure label={t('stats.withMfa')} value={data.withMfa} />
      </SimpleGrid>
      <Card withBorder padding="md">
        <Text fw={600} mb="sm">
          {t('stats.signups')}
        </Text>
        <Suspense fallback={<Skeleton h={240} />}>
          <SignupsChart data={data.signups} label={t('stats.signupsSeries')} />
        </Suspense>
      </Card>
    </Stack>
  );
}

export function DashboardPage(): ReactNode {
  const { t, i18n } = useTranslation('dashboard');
  const { data: user } = useSuspenseQuery(meQueryOptions());
  const staff = isStaff(user.role);
  return (
    <Stack gap="lg">
      <PageHeader title={t('title')} description={t('subtitle')} />
      <Card withBorder padding="lg" data-testid="account-summary">
        <Group wrap="nowrap" gap="md" align="flex-start">
          <UserAvatar user={user} size={64} />
          <Stack gap={4}>
            <Title order={3}>{user.fullname || user.email}</Title>
            <Text c="dimmed">{user.email}</Text>
            <Group gap="xs">
              <Badge variant="light">{t(`common:roles.${user.role}`)}</Badge>
              {/* Two-step verification off is no warning here: preferences offer it. */}
              {user.useMFA ? (
                <Badge variant="light" color="green" data-testid="summary-mfa-on">
                  {t('summary.mfaOn')}
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" c="dimmed">
              {t('summary.memberSince', { date: formatDate(user.created_at, localeOf(i18n.language)) })}
            </Text>
          </Stack>
        </Group>
      </Card>
      {/* Staff first see what to act on: the period's sales, who is on air, the newest orders. */}
      {staff ? <SalesFigures /> : null}
      {staff ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <LiveNow />
          <RecentOrders />
        </SimpleGrid>
      ) : null}
      {staff ? null : <NextConcerts />}
      {staff ? <SalesPerConcert /> : null}
      {staff ? <AccountFigures /> : null}
    </Stack>
  );
}
