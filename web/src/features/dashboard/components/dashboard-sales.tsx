import { Anchor, Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { formatNumber } from '../../../i18n/numbers';
import { formatPrice } from '../../cart/model';
import { ArtistLink } from '../../events/components/event-parts';
import { liveOverviewQueryOptions } from '../../live/queries';
import { changeTone, customPeriod } from '../../payments/model';
import type { SalesPeriod } from '../../payments/model';
import { ordersQueryOptions, salesFiguresQueryOptions } from '../../payments/queries';
import { OrderStatusBadge } from '../../payments/components/order-status-badge';

const TONE_COLOR = { up: 'green', down: 'red', flat: 'gray', new: 'blue' } as const;

/** "+12.5 %" against the previous period, or "new" when it had nothing. */
function Change({ change, testId }: { change: number | null; testId?: string }): ReactNode {
  const { t, i18n } = useTranslation('orders');
  const tone = changeTone(change);
  const label =
    change === null
      ? t('sales.noPrevious')
      : new Intl.NumberFormat(localeOf(i18n.language), { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(change / 100);
  return (
    <Badge color={TONE_COLOR[tone]} variant="light" data-testid={testId} data-tone={tone}>
      {label}
    </Badge>
  );
}

function Figure({ label, value, previous, change, testId }: { label: string; value: string; previous: string; change: number | null; testId: string }): ReactNode {
  const { t } = useTranslation('orders');
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Group gap="xs" align="baseline">
        <Text fz={28} fw={800} data-testid={`${testId}-value`}>
          {value}
        </Text>
        <Change change={change} testId={`${testId}-change`} />
      </Group>
      <Text size="xs" c="dimmed">
        {t('sales.previous', { value: previous })}
      </Text>
    </Card>
  );
}

type Choice = '7' | '30' | '90' | 'custom';

/** `2026-01-31` → that day at local midnight. */
function dayOf(value: string): Date {
  const [year, month, day] = value.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1);
}

/** Revenue and tickets over a chosen period against the one before it; money per currency. */
export function SalesFigures(): ReactNode {
  const { t, i18n } = useTranslation('orders');
  const locale = localeOf(i18n.language);
  const [choice, setChoice] = useState<Choice>('30');
  // Calendar days as `<input type="date">` gives them (YYYY-MM-DD, the reader's own days).
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const period: SalesPeriod | null =
    choice === 'custom' ? (first && last && first <= last ? customPeriod(dayOf(first), dayOf(last)) : null) : { days: Number(choice) as 7 | 30 | 90 };
  const figures = useQuery({ ...salesFiguresQueryOptions(period ?? { days: 30 }), enabled: period !== null });
  const number = (n: number): string => formatNumber(n, i18n.language);
  return (
    <Stack gap="sm" data-testid="sales-figures">
      <Group justify="space-between" align="flex-end">
        <Title order={3}>{t('sales.title')}</Title>
        <Group gap="xs" align="flex-end">
          <SegmentedControl
            value={choice}
            onChange={(value) => { setChoice(value as Choice); }}
            data={[
              { value: '7', label: t('sales.days', { count: 7 }) },
              { value: '30', label: t('sales.days', { count: 30 }) },
              { value: '90', label: t('sales.days', { count: 90 }) },
              { value: 'custom', label: t('sales.custom') },
            ]}
            data-testid="sales-period"
          />
          {choice === 'custom' ? (
            <Group gap="xs">
              <TextInput type="date" label={t('sales.from')} value={first} onChange={(e) => { setFirst(e.currentTarget.value); }} data-testid="sales-from" />
              <TextInput type="date" label={t('sales.to')} value={last} onChange={(e) => { setLast(e.currentTarget.value); }} data-testid="sales-to" />
            </Group>
          ) : null}
        </Group>
      </Group>
      {period === null ? (
        <Text c="dimmed">{t('sales.pickRange')}</Text>
      ) : figures.isPending ? (
        <Skeleton h={120} />
      ) : figures.isError ? (
        <Text c="red">{t('sales.loadFailed')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 2, md: 3 }}>
          <Figure
            label={t('sales.tickets')}
            value={number(figures.data.tickets)}
            previous={number(figures.data.previousTickets)}
            change={figures.data.ticketsChange}
            testId="sales-tickets"
          />
          {figures.data.currencies.length === 0 ? (
            <Figure label={t('sales.revenue')} value={number(0)} previous={number(0)} change={null} testId="sales-revenue" />
          ) : (
            figures.data.currencies.map((c) => (
              <Figure
                key={c.currency}
                label={t('sales.revenueIn', { currency: c.currency })}
                value={formatPrice(c.sales, c.currency, locale)}
                previous={formatPrice(c.previousSales, c.currency, locale)}
                change={c.salesChange}
                testId={`sales-revenue-${c.currency}`}
              />
            ))
          )}
        </SimpleGrid>
      )}
      {figures.data && figures.data.currencies.some((c) => c.refunds > 0) ? (
        <Text size="sm" c="dimmed">
          {figures.data.currencies
            .filter((c) => c.refunds > 0)
            .map((c) => t('sales.refunds', { amount: formatPrice(c.refunds, c.currency, locale), net: formatPrice(c.net, c.currency, locale) }))
            .join(' · ')}
        </Text>
      ) : null}
    </Stack>
  );
}

interface PanelProps {
  /** Where its texts are in the orders namespace: `<area>.title`, `.link`, `.loadFailed`, `.none`. */
  area: 'live' | 'recent';
  /** The page its link leads to. */
  link: string;
  testId: string;
  /** The skeleton's height while loading. */
  skeleton: number;
  query: { isPending: boolean; isError: boolean };
  /** Nothing to list: `<area>.none` instead of the children. */
  empty: boolean;
  children: ReactNode;
}

/** A dashboard panel: its title and link, then its loading, failed, empty or filled card. */
function Panel(props: PanelProps): ReactNode {
  const { t } = useTranslation('orders');
  return (
    <Stack gap="sm" data-testid={props.testId}>
      <Group justify="space-between">
        <Title order={3}>{t(`${props.area}.title`)}</Title>
        <Button component={Link} to={props.link} variant="subtle">
          {t(`${props.area}.link`)}
        </Button>
      </Group>
      <Card withBorder>
        {props.query.isPending ? (
          <Skeleton h={props.skeleton} />
        ) : props.query.isError ? (
          <Text c="red">{t(`${props.area}.loadFailed`)}</Text>
        ) : props.empty ? (
          <Text c="dimmed">{t(`${props.area}.none`)}</Text>
        ) : (
          props.children
        )}
      </Card>
    </Stack>
  );
}

/** The concerts on air now with their listeners (the live figures' latest sample). */
export function LiveNow(): ReactNode {
  const { t } = useTranslation('orders');
  const live = useQuery({ ...liveOverviewQueryOptions(true), retry: false });
  const onAir = (live.data?.concerts ?? []).filter((concert) => concert.status !== null && !concert.status.ended);
  return (
    <Panel area="live" link="/live" testId="live-now" skeleton={60} query={live} empty={onAir.length === 0}>
      <Table>
        <Table.Tbody>
          {onAir.map((concert) => (
            <Table.Tr key={concert.eventId}>
              <Table.Td>
                <Text fw={600}>{concert.title}</Text>
                {concert.projectId && concert.artistName ? (
                  <ArtistLink event={{ artistName: concert.artistName, projectId: concert.projectId }} size="xs" c="dimmed" />
                ) : null}
              </Table.Td>
              <Table.Td ta="end" data-testid="live-now-listeners">
                {t('live.listeners', { count: concert.status?.listeners ?? 0 })}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Panel>
  );
}

/** The five newest orders, each opening its page. */
export function RecentOrders(): ReactNode {
  const { i18n } = useTranslation('orders');
  const locale = localeOf(i18n.language);
  const orders = useQuery(ordersQueryOptions(1, 5));
  return (
    <Panel area="recent" link="/payments/orders" testId="recent-orders" skeleton={120} query={orders} empty={orders.data?.items.length === 0}>
      {/* One block an order (not a table): whole on a phone too, the state beside the price. */}
      <Stack gap="sm">
        {(orders.data?.items ?? []).map((order) => (
          <Group key={order.id} justify="space-between" align="flex-start" wrap="nowrap" gap="sm" data-testid="recent-order">
            <Stack gap={0} miw={0}>
              <Anchor component={Link} to={`/payments/orders/${order.id}`} fw={600} className="encore-link-tap" style={{ overflowWrap: 'anywhere' }}>
                {order.buyer.name || order.buyer.email}
              </Anchor>
              <Text size="sm" dir="auto">
                {order.items.map((item) => item.title).join(', ')}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(order.createdAt, locale)}
              </Text>
            </Stack>
            <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
              <Text fw={600}>{formatPrice(order.total, order.currency, locale)}</Text>
              <OrderStatusBadge status={order.status} />
            </Stack>
          </Group>
        ))}
      </Stack>
    </Panel>
  );
}
