import { ActionIcon, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Light or dark, for anyone (signed out too): kept in local storage under the theme preset
 * key, as the settings page's choice is. */
export function ThemeToggle({ color }: { color?: string }): ReactNode {
  const { t } = useTranslation('common');
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark');
  const label = scheme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={color}
        size="lg"
        onClick={() => {
          setColorScheme(scheme === 'dark' ? 'light' : 'dark');
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
