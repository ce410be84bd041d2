import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The tab's title names what the page shows ("Name · Encore", as the server's first answer
 * of a public page does), and is the app's name again once the reader leaves. */
export function usePageTitle(name: string | undefined): void {
  const { t } = useTranslation();
  const app = t('common:app.name');
  useEffect(() => {
    if (!name) return;
    document.title = `${name} · ${app}`;
    return () => {
      document.title = app;
    };
  }, [name, app]);
}
