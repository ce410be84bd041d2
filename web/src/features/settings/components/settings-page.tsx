import { Card, SegmentedControl, SimpleGrid, Stack, Text, Title, useMantineColorScheme } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../../../app/components/language-picker';
import { PageHeader } from '../../../app/components/page-header';
import { setNavigationLayout, useNavigationLayout } from '../../../app/layout-store';

/** Settings: theme preset, navigation layout, language. */
export function SettingsPage(): ReactNode {
  const { t } = useTranslation('account');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const layout = useNavigationLayout();
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.title')} description={t('settings.subtitle')} />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Card withBorder padding="lg">
          <Title order={4}>{t('settings.theme')}</Title>
          <Text size="sm" c="dimmed" mb="md">
            {t('settings.themeHint')}
          </Text>
          <SegmentedControl
            fullWidth
            value={colorScheme === 'light' ? 'light' : 'dark'}
            onChange={(value) => {
              setColorScheme(value === 'light' ? 'light' : 'dark');
            }}
            data={[
              { value: 'light', label: t('settings.light') },
              { value: 'dark', label: t('settings.dark') },
            ]}
            data-testid="theme-control"
          />
        </Card>
        <Card withBorder padding="lg">
          <Title order={4}>{t('settings.layout')}</Title>
          <Text size="sm" c="dimmed" mb="md">
            {t('settings.layoutHint')}
          </Text>
          <SegmentedControl
            fullWidth
            value={layout}
            onChange={(value) => {
              setNavigationLayout(value === 'top' ? 'top' : 'side');
            }}
            data={[
              { value: 'side', label: t('settings.sideBar') },
              { value: 'top', label: t('settings.topBar') },
            ]}
            data-testid="layout-control"
          />
        </Card>
        <Card withBorder padding="lg">
          <Title order={4}>{t('language.title')}</Title>
          <Text size="sm" c="dimmed" mb="md">
            {t('settings.languageHint')}
          </Text>
          <LanguagePicker />
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
