import type { ReactNode } from 'react';
import { ErrorPage } from './error-page';

export function ForbiddenPage(): ReactNode {
  return <ErrorPage code={403} kind="forbidden" />;
}
