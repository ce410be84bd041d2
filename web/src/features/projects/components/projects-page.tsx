import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../app/components/empty-state';
import { PageHeader } from '../../../app/components/page-header';

export function ProjectsPage(): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.projects')} description={t('pages.projects.intro')} />
      <EmptyState title={t('pages.projects.emptyTitle')} description={t('pages.projects.emptyText')} />
    </>
  );
}
