import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import { StrictMode } from 'react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

/** Renders a page as the app does (Mantine, a fresh query client without retries, a router at `path`).
 * `strict` runs effects twice, as development does, to prove one-shot effects stay one-shot. */
export function renderPage(page: ReactNode, path = '/', { strict = false } = {}): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}
