import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function CartPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('cart.title')} />
      <EmptyState
        title={t('cart.emptyTitle')}
        description={t('cart.emptyText')}
        action={
          <Button component={Link} to="/events">
            {t('cart.browse')}
          </Button>
        }
      />
    </>
  );
}
