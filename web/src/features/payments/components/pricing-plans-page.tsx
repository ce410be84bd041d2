import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function PricingPlansPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.pricingPlans')} description={t('pages.pricingPlans.intro')} />
      <EmptyState title={t('pages.pricingPlans.emptyTitle')} description={t('pages.pricingPlans.emptyText')} />
    </>
  );
}
