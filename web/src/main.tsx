import './app/styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import i18n, { setupI18n } from './i18n';
import { setAuthErrorHandlers } from './lib/http';
import { clearSession } from './features/auth/session';
import './features/auth/api';
import { AppProviders } from './app/providers';
import { queryClient } from './lib/query-client';
import { createAppRouter } from './app/router';

async function start(): Promise<void> {
  await setupI18n();
  // What the server wrote in the reader's language (its messages, the demo's concerts and
  // pass) is asked again in the new one.
  i18n.on('languageChanged', () => {
    void queryClient.invalidateQueries();
  });
  const router = createAppRouter();
  setAuthErrorHandlers({
    // Spec 6/8: a 401 logs out and goes to /auth/login; a 403 goes to /403.
    onUnauthorized: () => {
      clearSession();
      queryClient.clear();
      if (!window.location.pathname.startsWith('/auth/login')) void router.navigate('/auth/login');
    },
    onForbidden: () => {
      void router.navigate('/403');
    },
  });
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
