import { Box, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBroadcast, IconClockHour4, IconWorld } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LanguagePicker } from '../../preferences/components/language-picker';
import { ThemeToggle } from '../../settings/components/theme-toggle';
import { FloatingMiniPlayer } from '../../player/components/mini-player';

/** What the side panel promises, one line each. */
const PANEL_POINTS = [
  { Icon: IconClockHour4, text: 'panel.access' },
  { Icon: IconWorld, text: 'panel.artists' },
] as const;

/** The /auth layout: the form on one side, the sign-in side panel on the other. A signed-in
 * fan still reaches some of its pages (lost password, a link from an e-mail, approving a QR
 * sign-in): the player's bar stays there while a concert plays. */
export function AuthLayout(): ReactNode {
  const { t } = useTranslation('auth');
  return (
    <>
      <Box mih="100vh" style={{ display: 'flex', flexWrap: 'wrap' }}>
        <Box
          className="encore-auth-panel"
          p={{ base: 'lg', md: 48 }}
          style={{ flex: '1 1 360px', display: 'flex', alignItems: 'center' }}
        >
          <Stack gap="lg" maw={480} mx="auto">
            <Group gap="xs">
              <IconBroadcast size={36} />
              <Title order={1}>{t('common:app.name')}</Title>
            </Group>
            <Text size="xl" fw={600}>
              {t('panel.headline')}
            </Text>
            <List spacing="md" size="md" center>
              {PANEL_POINTS.map(({ Icon, text }) => (
                <List.Item
                  key={text}
                  icon={
                    <ThemeIcon color="white" variant="white" radius="xl">
                      <Icon size={16} color="#154EC1" />
                    </ThemeIcon>
                  }
                >
                  {t(text)}
                </List.Item>
              ))}
            </List>
          </Stack>
        </Box>
        <Box p={{ base: 'md', md: 48 }} style={{ flex: '1 1 420px', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Stack w="100%" maw={440} gap="md">
            <Paper withBorder shadow="sm" p="xl" radius="md">
              <Outlet />
            </Paper>
            <Group gap="sm" align="flex-end">
              <Box maw={220}>
                <LanguagePicker label={t('common:language.label')} />
              </Box>
              <ThemeToggle />
            </Group>
          </Stack>
        </Box>
      </Box>
      <FloatingMiniPlayer />
    </>
  );
}
