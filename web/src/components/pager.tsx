import { Group, Pagination } from '@mantine/core';
import type { ReactNode } from 'react';

interface PagerProps {
  pages: number;
  page: number;
  onChange: (page: number) => void;
  testId?: string;
}

/** The footer under a paged list: nothing when everything fits on one page. */
export function Pager({ pages, page, onChange, testId }: PagerProps): ReactNode {
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination total={pages} value={Math.min(page, pages)} onChange={onChange} data-testid={testId} />
    </Group>
  );
}
