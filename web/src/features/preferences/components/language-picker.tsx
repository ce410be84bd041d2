import { Select } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStatus } from '../../auth/session';
import { saveMyLanguage } from '../../users/api';
import { noteChosenSignedOut } from '../../../lib/device-choices';
import { LANGUAGES, isLanguageCode } from '../../../i18n/languages';

/**
 * A real language picker: changing it switches the whole app (and its direction) and, when
 * signed in, saves it on the account so that messages sent to it follow.
 */
export function LanguagePicker({ label }: { label?: string }): ReactNode {
  const { t, i18n } = useTranslation();
  const { isAuthorized } = useAuthStatus();
  return (
    <Select
      label={label ?? t('language.label')}
      // Without a visible label (the public pages' top bar) it is still named.
      aria-label={label === '' ? t('language.label') : undefined}
      data={LANGUAGES.map((language) => ({ value: language.code, label: language.nativeName }))}
      value={i18n.resolvedLanguage ?? i18n.language}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      onChange={(value) => {
        if (!isLanguageCode(value)) return;
        void i18n.changeLanguage(value);
        // Best effort: the screen has switched already; the next change saves again. Signed
        // out, the choice goes to the account at the next sign-in.
        if (isAuthorized) saveMyLanguage(value).catch(() => undefined);
        else noteChosenSignedOut('language');
      }}
      data-testid="language-picker"
    />
  );
}
