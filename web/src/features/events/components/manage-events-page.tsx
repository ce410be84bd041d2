import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function ManageEventsPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.manageEvents')} description={t('pages.manageEvents.intro')} />
      <EmptyState title={t('pages.manageEvents.emptyTitle')} description={t('pages.manageEvents.emptyText')} />
    </>
  );
}
