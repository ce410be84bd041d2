import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function PaymentMethodsPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.paymentMethods')} description={t('pages.paymentMethods.intro')} />
      <EmptyState title={t('pages.paymentMethods.emptyTitle')} description={t('pages.paymentMethods.emptyText')} />
    </>
  );
}
