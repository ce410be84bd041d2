import { Anchor, Box, Group, Title } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguagePicker } from '../../preferences/components/language-picker';
import { ThemeToggle } from '../../settings/components/theme-toggle';

/** The top bar of the pages outside the app shell (home, a public concert page): the name
 * linking home, the language, and the page's own buttons. */
export function PublicHeader({ children }: { children: ReactNode }): ReactNode {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" px="md" py="sm" className="encore-auth-panel">
      <Anchor component={Link} to="/home" c="inherit" underline="never" className="encore-tap">
        <Group gap="xs">
          <IconBroadcast size={28} />
          <Title order={3}>{t('common:app.name')}</Title>
        </Group>
      </Anchor>
      <Group gap="sm">
        <Box w={180}>
          <LanguagePicker label="" />
        </Box>
        <ThemeToggle color="white" />
        {children}
      </Group>
    </Group>
  );
}
