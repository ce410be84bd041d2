import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { languageChosenHere } from '../../i18n';
import { isLanguageCode } from '../../i18n/languages';
import { THEME_STORAGE_KEY } from '../../lib/constants';
import { takeChosenSignedOut, takeSignedIn } from '../../lib/device-choices';
import { authKeys } from '../auth/queries';
import type { AccountPatch } from '../users/api';
import { updateAccount } from '../users/api';
import type { User } from '../users/model';

/**
 * Once per sign-in, the account's language and theme and this device's meet: what the
 * visitor chose here while signed out (on the sign-in page) goes to the account; a device
 * that has a choice of its own keeps it; a new one takes the account's, so it starts as the
 * others look. Between sign-ins each choice saves itself (the language picker, the theme
 * toggle and settings).
 */
export function useAccountPreferences(user: Pick<User, 'id' | 'language' | 'theme'>): void {
  const { i18n } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark');
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!takeSignedIn()) return;
    const chosen = takeChosenSignedOut();
    const patch: AccountPatch = {};
    const shown = i18n.resolvedLanguage ?? i18n.language;
    if (chosen.has('language')) {
      if (isLanguageCode(shown) && shown !== user.language) patch.language = shown;
    } else if (!languageChosenHere() && shown !== user.language) {
      void i18n.changeLanguage(user.language);
    }
    if (chosen.has('theme')) {
      if (scheme !== user.theme) patch.theme = scheme;
    } else if (!themeChosenHere() && user.theme !== null && user.theme !== scheme) {
      setColorScheme(user.theme);
    }
    if (Object.keys(patch).length > 0) {
      updateAccount(user.id, patch)
        .then(() => queryClient.invalidateQueries({ queryKey: authKeys.me }))
        .catch(() => undefined);
    }
    // Once per sign-in (takeSignedIn), with the account as it was read then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user.id]);
}

/** Whether this device keeps a theme of its own choosing (Mantine writes it on a choice). */
function themeChosenHere(): boolean {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}
