import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function CheckoutSuccessPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.checkoutSuccess')} />
      <EmptyState
        title={t('cart.successEmptyTitle')}
        description={t('cart.successEmptyText')}
        action={
          <Button component={Link} to="/my-events">
            {t('nav.myEvents')}
          </Button>
        }
      />
    </>
  );
}
