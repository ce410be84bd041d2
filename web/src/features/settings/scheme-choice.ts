import { useMantineColorScheme } from '@mantine/core';
import { useCallback } from 'react';
import { noteChosenSignedOut } from '../../lib/device-choices';
import { useAuthStatus } from '../auth/session';
import { saveMyTheme } from '../users/api';
import type { Theme } from '../users/model';

/**
 * Choosing light or dark: this device switches at once (local storage under the theme
 * preset key), and the account keeps the choice for its other devices (best effort: the
 * next choice saves again). Signed out, it goes to the account at the next sign-in.
 */
export function useSchemeChoice(): (theme: Theme) => void {
  const { setColorScheme } = useMantineColorScheme();
  const { isAuthorized } = useAuthStatus();
  return useCallback(
    (theme: Theme) => {
      setColorScheme(theme);
      if (isAuthorized) saveMyTheme(theme).catch(() => undefined);
      else noteChosenSignedOut('theme');
    },
    [setColorScheme, isAuthorized],
  );
}
