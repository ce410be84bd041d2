import { Select } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguageCode } from '../../i18n/languages';

/** A real language picker: changing it switches the whole app (and its direction). */
export function LanguagePicker({ label }: { label?: string }): ReactNode {
  const { t, i18n } = useTranslation();
  return (
    <Select
      label={label ?? t('language.label')}
      data={LANGUAGES.map((language) => ({ value: language.code, label: language.nativeName }))}
      value={i18n.resolvedLanguage ?? i18n.language}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      onChange={(value) => {
        if (isLanguageCode(value)) void i18n.changeLanguage(value);
      }}
      data-testid="language-picker"
    />
  );
}
