import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function MyEventsPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.myEvents')} description={t('pages.myEvents.intro')} />
      <EmptyState title={t('pages.myEvents.emptyTitle')} description={t('pages.myEvents.emptyText')} />
    </>
  );
}
