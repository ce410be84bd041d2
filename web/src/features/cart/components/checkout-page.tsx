import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function CheckoutPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.checkout')} />
      <EmptyState title={t('cart.checkoutEmptyTitle')} description={t('cart.checkoutEmptyText')} />
    </>
  );
}
