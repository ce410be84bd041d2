import { ActionIcon, Badge, Button, Card, Drawer, Group, Menu, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBar, IconDiscount, IconDots, IconEdit, IconHeartHandshake, IconPlus, IconSend, IconTicket, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { formatPrice } from '../../cart/model';
import type { EventStatus, ManagedEvent } from '../model';
import { useEventAction, useSaveEvent } from '../mutations';
import { eventSalesQueryOptions, managedEventsQueryOptions } from '../queries';
import { EventFormModal } from './event-form-modal';
import { ArtistLink, formatWhen, useLocale } from './event-parts';
import { LivePanel } from './live-panel';
import { TiersPanel } from './tiers-panel';
import { PromoCodesPanel } from '../../promo/components/promo-codes-panel';
import { TipSettingsPanel } from '../../tips/components/tip-settings-panel';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { RowTable } from '../../../components/row-cards';
import { formatNumber } from '../../../i18n/numbers';

const SalesChart = lazy(() => import('./sales-chart'));

const STATUS_COLOR: Record<EventStatus, string> = {
  draft: 'gray',
  published: 'blue',
  live: 'red',
  ended: 'grape',
  cancelled: 'orange',
};

function SalesPanel({ event }: { event: ManagedEvent }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  const sales = useQuery(eventSalesQueryOptions(event.id));
  return (
    <Stack>
      {sales.isPending ? (
        <Skeleton h={220} />
      ) : sales.isError ? (
        <Text c="red">{t('manage.salesFailed')}</Text>
      ) : (
        <Card withBorder>
          <Group justify="space-between" mb="sm">
            <Text>{t('manage.ticketsSold', { count: sales.data.ticketsSold })}</Text>
            <Text fw={700}>{formatPrice(sales.data.revenue, sales.data.currency, locale)}</Text>
          </Group>
          {sales.data.perDay.length === 0 ? (
            <Text c="dimmed">{t('manage.noSales')}</Text>
          ) : (
            <Suspense fallback={<Skeleton h={220} />}>
              <SalesChart data={sales.data.perDay} label={t('manage.tickets')} />
            </Suspense>
          )}
        </Card>
      )}
      <LivePanel eventId={event.id} />
    </Stack>
  );
}

/** Concerts the viewer manages (staff: all; project members: their projects'), with sales. */
export function ManageEventsPage(): ReactNode {
  const { t, i18n } = useTranslation('events');
  const locale = useLocale();
  const list = useQuery(managedEventsQueryOptions());
  const [editing, setEditing] = useState<ManagedEvent | 'new' | null>(null);
  const [salesOf, setSalesOf] = useState<ManagedEvent | null>(null);
  const [tiersOf, setTiersOf] = useState<ManagedEvent | null>(null);
  const [promoOf, setPromoOf] = useState<ManagedEvent | null>(null);
  const [tipsOf, setTipsOf] = useState<ManagedEvent | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'cancel' | 'delete'; event: ManagedEvent } | null>(null);
  const save = useSaveEvent({
    editing,
    onCreatedWithoutImage: setEditing,
    onSaved: () => {
      setEditing(null);
    },
  });
  const act = useEventAction(() => {
    setConfirm(null);
  });

  /** Each cell of a concert's row, shown in the table's columns or on the concert's card. */
  const cellsOf = (event: ManagedEvent): Record<'concert' | 'status' | 'startsAt' | 'price' | 'sold' | 'revenue' | 'actions', ReactNode> => ({
    concert: (
      <>
        <Text fw={600} dir="auto">
          {event.title}
        </Text>
        <ArtistLink event={event} c="dimmed" testId="manage-artist" />
      </>
    ),
    status: (
      <Badge color={STATUS_COLOR[event.status]} variant="light" data-testid="event-status">
        {t(`status.${event.status}`)}
      </Badge>
    ),
    startsAt: formatWhen(event.startsAt, locale),
    price: formatPrice(event.price, event.currency, locale),
    sold: event.capacity === null ? formatNumber(event.ticketsSold, i18n.language) : `${formatNumber(event.ticketsSold, i18n.language)} / ${formatNumber(event.capacity, i18n.language)}`,
    revenue: formatPrice(event.revenue, event.currency, locale),
    actions: (
      <>
        {event.status === 'draft' ? (
          <Button size="xs" leftSection={<IconSend size={14} />} loading={act.isPending && act.variables.event.id === event.id} onClick={() => { act.mutate({ kind: 'publish', event }); }} data-testid="event-publish">
            {t('manage.publish')}
          </Button>
        ) : null}
        <ActionIcon variant="subtle" aria-label={t('manage.sales')} onClick={() => { setSalesOf(event); }} data-testid="manage-sales">
          <IconChartBar size={18} />
        </ActionIcon>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={t('manage.actions')}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => { setEditing(event); }}>
              {t('manage.edit')}
            </Menu.Item>
            <Menu.Item leftSection={<IconTicket size={16} />} onClick={() => { setTiersOf(event); }} data-testid="manage-tiers">
              {t('manage.tiers.menu')}
            </Menu.Item>
            <Menu.Item leftSection={<IconDiscount size={16} />} onClick={() => { setPromoOf(event); }} data-testid="manage-promo">
              {t('promo:manage.menu')}
            </Menu.Item>
            <Menu.Item leftSection={<IconHeartHandshake size={16} />} onClick={() => { setTipsOf(event); }} data-testid="manage-tips">
              {t('tips:settings.title')}
            </Menu.Item>
            {event.status !== 'cancelled' && event.status !== 'ended' ? (
              <Menu.Item color="orange" leftSection={<IconX size={16} />} onClick={() => { setConfirm({ kind: 'cancel', event }); }}>
                {t('manage.cancel')}
              </Menu.Item>
            ) : null}
            {event.ticketsSold === 0 ? (
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => { setConfirm({ kind: 'delete', event }); }}>
                {t('manage.delete')}
              </Menu.Item>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      </>
    ),
  });

  return (
    <>
      <PageHeader
        title={t('common:nav.manageEvents')}
        description={t('common:pages.manageEvents.intro')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => { setEditing('new'); }} data-testid="event-create">
            {t('manage.create')}
          </Button>
        }
      />
      {list.isPending ? (
        <Skeleton h={240} />
      ) : list.isError ? (
        <Text c="red">{t('manage.loadFailed')}</Text>
      ) : list.data.length === 0 ? (
        <EmptyState title={t('common:pages.manageEvents.emptyTitle')} description={t('common:pages.manageEvents.emptyText')} />
      ) : (
        <RowTable
          rows={list.data}
          columns={[
            { key: 'concert', label: t('manage.concert'), onCard: 'heading' },
            { key: 'status', label: t('manage.status'), onCard: 'aside' },
            { key: 'startsAt', label: t('manage.startsAt') },
            { key: 'price', label: t('manage.price') },
            { key: 'sold', label: t('manage.sold'), testId: 'tickets-sold' },
            { key: 'revenue', label: t('manage.revenue'), testId: 'revenue' },
            { key: 'actions', label: t('manage.actions'), onCard: 'actions', controls: true },
          ]}
          cellsOf={cellsOf}
          testId="manage-table"
          rowTestId="manage-row"
          tableProps={{ striped: true, highlightOnHover: true }}
        />
      )}
      {editing !== null ? (
        <EventFormModal
          opened
          event={editing === 'new' ? null : editing}
          saving={save.isPending}
          onClose={() => { setEditing(null); }}
          onSubmit={(result) => { save.mutate(result); }}
        />
      ) : null}
      <Drawer opened={salesOf !== null} onClose={() => { setSalesOf(null); }} position="right" size="lg" title={salesOf?.title}>
        {salesOf ? <SalesPanel event={salesOf} /> : null}
      </Drawer>
      <Drawer opened={tiersOf !== null} onClose={() => { setTiersOf(null); }} position="right" size="lg" title={tiersOf?.title} data-testid="tiers-drawer">
        {tiersOf ? <TiersPanel event={tiersOf} /> : null}
      </Drawer>
      <Drawer opened={promoOf !== null} onClose={() => { setPromoOf(null); }} position="right" size="lg" title={promoOf?.title} data-testid="promo-drawer">
        {promoOf ? <PromoCodesPanel scope={{ kind: 'event', id: promoOf.id }} concerts={[promoOf]} /> : null}
      </Drawer>
      <Drawer opened={tipsOf !== null} onClose={() => { setTipsOf(null); }} position="right" size="lg" title={tipsOf?.title} data-testid="tips-drawer">
        {tipsOf ? <TipSettingsPanel eventId={tipsOf.id} /> : null}
      </Drawer>
      <ConfirmDialog
        opened={confirm !== null}
        onClose={() => { setConfirm(null); }}
        title={confirm?.kind === 'cancel' ? t('manage.cancelTitle') : t('manage.deleteTitle')}
        cancelLabel={t('form.cancel')}
        confirmLabel={confirm?.kind === 'cancel' ? t('manage.cancel') : t('manage.delete')}
        busy={act.isPending}
        onConfirm={() => {
          if (confirm) act.mutate(confirm);
        }}
        confirmTestId="confirm-action"
      >
        <Text>
          {confirm?.kind === 'cancel'
            ? t('manage.cancelText', { title: confirm.event.title, count: confirm.event.ticketsSold })
            : t('manage.deleteText', { title: confirm?.event.title ?? '' })}
        </Text>
      </ConfirmDialog>
    </>
  );
}
