import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function EventsPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.events')} description={t('pages.events.intro')} />
      <EmptyState title={t('pages.events.emptyTitle')} description={t('pages.events.emptyText')} />
    </>
  );
}
