import type { ReactNode } from 'react';
import { ErrorPage } from './error-page';

export function NotFoundPage(): ReactNode {
  return <ErrorPage code={404} kind="notFound" />;
}
