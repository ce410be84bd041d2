import { ActionIcon, Tooltip, useComputedColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSchemeChoice } from '../scheme-choice';

/** Light or dark, for anyone (signed out too): kept in local storage under the theme preset
 * key, as the settings page's choice is, and with the account. */
export function ThemeToggle({ color }: { color?: string }): ReactNode {
  const { t } = useTranslation('common');
  const choose = useSchemeChoice();
  const scheme = useComputedColorScheme('dark');
  const label = scheme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={color}
        size="lg"
        onClick={() => {
          choose(scheme === 'dark' ? 'light' : 'dark');
        }}
        aria-label={label}
        data-testid="theme-toggle"
        data-scheme={scheme}
      >
        {scheme === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
      </ActionIcon>
    </Tooltip>
  );
}
