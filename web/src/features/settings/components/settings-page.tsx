import { Card, SegmentedControl, SimpleGrid, Stack, Text, Title, useMantineColorScheme } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../../preferences/components/language-picker';
import { PageHeader } from '../../../components/page-header';
import { setNavigationLayout, useNavigationLayout } from '../layout-store';
import { useSchemeChoice } from '../scheme-choice';

/** One setting: what it is, a line of help, and its control. */
function SettingCard({ title, hint, children }: { title: string; hint: string; children: ReactNode }): ReactNode {
  return (
    <Card withBorder padding="lg">
      <Title order={4}>{title}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {hint}
      </Text>
      {children}
    </Card>
  );
}

interface SettingChoiceProps<T extends string> {
  value: T;
  /** Each choice and its label, in order. */
  options: Record<T, string>;
  onChange: (value: T) => void;
  testId: string;
}

/** A setting with a few named choices, one of them on. */
function SettingChoice<T extends string>({ value, options, onChange, testId }: SettingChoiceProps<T>): ReactNode {
  const data = (Object.keys(options) as T[]).map((key) => ({ value: key, label: options[key] }));
  return (
    <SegmentedControl
      fullWidth
      value={value}
      onChange={(chosen) => {
        // Only the keys of `options` are offered, so the control hands back one of them.
        onChange(chosen as T);
      }}
      data={data}
      data-testid={testId}
    />
  );
}

/** Settings: theme preset, navigation layout, language. */
export function SettingsPage(): ReactNode {
  const { t } = useTranslation('account');
  const { colorScheme } = useMantineColorScheme();
  const choose = useSchemeChoice();
  const layout = useNavigationLayout();
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.title')} description={t('settings.subtitle')} />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <SettingCard title={t('settings.theme')} hint={t('settings.themeHint')}>
          <SettingChoice
            value={colorScheme === 'light' ? 'light' : 'dark'}
            options={{ light: t('settings.light'), dark: t('settings.dark') }}
            onChange={choose}
            testId="theme-control"
          />
        </SettingCard>
        <SettingCard title={t('settings.layout')} hint={t('settings.layoutHint')}>
          <SettingChoice value={layout} options={{ side: t('settings.sideBar'), top: t('settings.topBar') }} onChange={setNavigationLayout} testId="layout-control" />
        </SettingCard>
        <SettingCard title={t('language.title')} hint={t('settings.languageHint')}>
          <LanguagePicker />
        </SettingCard>
      </SimpleGrid>
    </Stack>
  );
}
