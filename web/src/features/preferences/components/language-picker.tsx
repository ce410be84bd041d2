import { Select } from '@mantine/core';
import { useCallback } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStatus } from '../../auth/session';
import { saveMyLanguage } from '../../users/api';
import { noteChosenSignedOut } from '../../../lib/device-choices';
import { keepLanguage } from '../../../i18n';
import { LANGUAGES, isLanguageCode } from '../../../i18n/languages';

/** Choosing a language: the whole app switches (and its direction) and, signed in, the
 * account keeps it so that messages sent to it follow; signed out, it goes to the account at
 * the next sign-in. */
export function useLanguageChoice(): (value: string | null) => void {
  const { i18n } = useTranslation();
  const { isAuthorized } = useAuthStatus();
  return useCallback(
    (value: string | null) => {
      if (!isLanguageCode(value)) return;
      keepLanguage(value);
      void i18n.changeLanguage(value);
      // Best effort: the screen has switched already; the next change saves again.
      if (isAuthorized) saveMyLanguage(value).catch(() => undefined);
      else noteChosenSignedOut('language');
    },
    [i18n, isAuthorized],
  );
}

/**
 * A real language picker: changing it switches the whole app (and its direction) and, when
 * signed in, saves it on the account so that messages sent to it follow.
 */
export function LanguagePicker({ label }: { label?: string }): ReactNode {
  const { t, i18n } = useTranslation();
  const choose = useLanguageChoice();
  return (
    <Select
      label={label ?? t('language.label')}
      // Without a visible label (the public pages' top bar) it is still named.
      aria-label={label === '' ? t('language.label') : undefined}
      data={LANGUAGES.map((language) => ({ value: language.code, label: language.nativeName }))}
      value={i18n.resolvedLanguage ?? i18n.language}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      onChange={choose}
      data-testid="language-picker"
    />
  );
}
