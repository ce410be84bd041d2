import { Group, Pagination } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../i18n/numbers';

interface PagerProps {
  pages: number;
  page: number;
  onChange: (page: number) => void;
  testId?: string;
}

/** A page's number on its button in the reader's digits (Persian ۲, not 2). */
export function usePageNumbers(): (page: number) => { children: string } {
  const { i18n } = useTranslation();
  return (page) => ({ children: formatNumber(page, i18n.language) });
}

/** The footer under a paged list: nothing when everything fits on one page. */
export function Pager({ pages, page, onChange, testId }: PagerProps): ReactNode {
  const pageNumbers = usePageNumbers();
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination total={pages} value={Math.min(page, pages)} onChange={onChange} getItemProps={pageNumbers} data-testid={testId} />
    </Group>
  );
}
