import { ActionIcon, Anchor, Box, Button, Group, Menu, Title, useComputedColorScheme } from '@mantine/core';
import { IconBroadcast, IconCheck, IconDotsVertical, IconMoon, IconSun } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LANGUAGES } from '../../../i18n/languages';
import { LanguagePicker, useLanguageChoice } from '../../preferences/components/language-picker';
import { useSchemeChoice } from '../../settings/scheme-choice';
import { ThemeToggle } from '../../settings/components/theme-toggle';

/** A secondary link of the header: a button beside the others on a wide screen, an item of
 * its menu on a phone. */
export interface PublicHeaderLink {
  label: string;
  to: string;
  testId?: string;
}

/** On a phone, the language, the theme and the secondary links in one menu, so that the bar
 * stays one row (the name, the page's main button, this). */
function PublicHeaderMenu({ links }: { links: PublicHeaderLink[] }): ReactNode {
  const { t, i18n } = useTranslation();
  const chooseLanguage = useLanguageChoice();
  const chooseScheme = useSchemeChoice();
  const scheme = useComputedColorScheme('dark');
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="white" size="lg" aria-label={t('common:publicMenu.open')} data-testid="public-menu">
          <IconDotsVertical size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {links.map((link) => (
          <Menu.Item key={link.to} component={Link} to={link.to} data-testid={link.testId}>
            {link.label}
          </Menu.Item>
        ))}
        {links.length > 0 ? <Menu.Divider /> : null}
        <Menu.Label>{t('common:language.label')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language.code}
            lang={language.htmlLang}
            onClick={() => {
              chooseLanguage(language.code);
            }}
            rightSection={language.code === current ? <IconCheck size={16} /> : null}
            aria-current={language.code === current ? 'true' : undefined}
            data-testid={`public-menu-language-${language.code}`}
          >
            {language.nativeName}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          leftSection={scheme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />}
          onClick={() => {
            chooseScheme(scheme === 'dark' ? 'light' : 'dark');
          }}
          data-testid="public-menu-theme"
          data-scheme={scheme}
        >
          {scheme === 'dark' ? t('common:theme.toLight') : t('common:theme.toDark')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The top bar of the pages outside the app shell (home, a public concert or artist page):
 * the name linking home, the language, the theme, the `links` and the page's own buttons
 * (`children`). On a phone it stays one row: the name, `children` and a menu with the rest. */
export function PublicHeader({ links = [], children }: { links?: PublicHeaderLink[]; children: ReactNode }): ReactNode {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" px="md" py="sm" className="encore-auth-panel" data-testid="public-header">
      <Anchor component={Link} to="/home" c="inherit" underline="never" className="encore-tap" style={{ flexShrink: 0 }}>
        <Group gap="xs" wrap="nowrap">
          <IconBroadcast size={28} />
          <Title order={3}>{t('common:app.name')}</Title>
        </Group>
      </Anchor>
      <Group gap="sm" wrap="nowrap">
        <Box w={180} visibleFrom="sm">
          <LanguagePicker label="" />
        </Box>
        <Box visibleFrom="sm">
          <ThemeToggle color="white" />
        </Box>
        {links.map((link) => (
          <Button key={link.to} component={Link} to={link.to} variant="subtle" color="white" visibleFrom="sm" data-testid={link.testId}>
            {link.label}
          </Button>
        ))}
        {children}
        <Box hiddenFrom="sm">
          <PublicHeaderMenu links={links} />
        </Box>
      </Group>
    </Group>
  );
}
