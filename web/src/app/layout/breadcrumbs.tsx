import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';

interface CrumbHandle {
  crumb?: string;
}

/** Home plus the names of the matched routes. */
export function AppBreadcrumbs(): ReactNode {
  const { t } = useTranslation();
  const matches = useMatches();
  const crumbs = matches
    .map((match) => ({ key: (match.handle as CrumbHandle | undefined)?.crumb, path: match.pathname }))
    .filter((crumb): crumb is { key: string; path: string } => Boolean(crumb.key) && crumb.key !== 'nav.home');
  const current = crumbs.at(-1)?.key ?? 'nav.home';
  const title = `${t(current)} · ${t('app.name')}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <Breadcrumbs mb="md" aria-label={t('nav.breadcrumbs')}>
      <Anchor component={Link} to="/home" size="sm">
        {t('nav.home')}
      </Anchor>
      {crumbs.map((crumb, index) =>
        index === crumbs.length - 1 ? (
          <Text key={crumb.path} size="sm" c="dimmed">
            {t(crumb.key)}
          </Text>
        ) : (
          <Anchor key={crumb.path} component={Link} to={crumb.path} size="sm">
            {t(crumb.key)}
          </Anchor>
        ),
      )}
    </Breadcrumbs>
  );
}
