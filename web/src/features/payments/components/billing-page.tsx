import { Tabs } from '@mantine/core';
import { IconBuildingBank, IconMapPin } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

/** Billing has two tabs: billing address and bank details (spec 2, 3). */
export function BillingPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.billing')} description={t('pages.billing.intro')} />
      <Tabs defaultValue="address">
        <Tabs.List mb="md">
          <Tabs.Tab value="address" leftSection={<IconMapPin size={16} />}>
            {t('pages.billing.addressTab')}
          </Tabs.Tab>
          <Tabs.Tab value="bank" leftSection={<IconBuildingBank size={16} />}>
            {t('pages.billing.bankTab')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="address">
          <EmptyState title={t('pages.billing.addressEmptyTitle')} description={t('pages.billing.addressEmptyText')} />
        </Tabs.Panel>
        <Tabs.Panel value="bank">
          <EmptyState title={t('pages.billing.bankEmptyTitle')} description={t('pages.billing.bankEmptyText')} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
