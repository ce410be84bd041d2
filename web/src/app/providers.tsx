import { Suspense, useEffect } from 'react';
import type { ReactNode } from 'react';
import { Center, DirectionProvider, Loader, MantineProvider, localStorageColorSchemeManager, useDirection } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { THEME_STORAGE_KEY, TOAST_DURATION_MS, TOAST_OFFSET_PX } from '../lib/constants';
import { languageInfo } from '../i18n/languages';
import { queryClient } from '../lib/query-client';
import { cssVariablesResolver, theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });

/** Keeps Mantine's direction in step with the language (Persian is right-to-left). */
function DirectionSync(): null {
  const { i18n } = useTranslation();
  const { setDirection } = useDirection();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useEffect(() => {
    setDirection(languageInfo(language).dir);
  }, [language, setDirection]);
  return null;
}

export function PageLoader(): ReactNode {
  return (
    <Center h="60vh">
      <Loader aria-label="loading" />
    </Center>
  );
}

export function AppProviders({ children }: { children: ReactNode }): ReactNode {
  return (
    <DirectionProvider detectDirection>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        colorSchemeManager={colorSchemeManager}
        defaultColorScheme="dark"
      >
        <QueryClientProvider client={queryClient}>
          <Notifications
            position="top-right"
            autoClose={TOAST_DURATION_MS}
            classNames={{ root: 'encore-toasts' }}
            style={{ '--encore-toast-offset': `${String(TOAST_OFFSET_PX)}px` } as React.CSSProperties}
          />
          <Suspense fallback={<PageLoader />}>
            <DirectionSync />
            {children}
          </Suspense>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
