import { Accordion, Anchor, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header';

/** What fans ask, in the order they meet it: listening, the 24 hours, devices, refunds, signing in. */
export const HELP_KEYS = ['listen', 'window', 'replay', 'devices', 'sound', 'refunds', 'receipts', 'signIn', 'code', 'contact'] as const;

/** Help for every signed-in account: the fans' questions answered (the licences stay on About). */
export function HelpPage(): ReactNode {
  const { t } = useTranslation('help');
  return (
    <Stack gap="lg" maw={860}>
      <PageHeader title={t('title')} description={t('subtitle')} />
      <Accordion variant="separated" radius="md" defaultValue="listen" data-testid="help">
        {HELP_KEYS.map((key) => (
          <Accordion.Item key={key} value={key}>
            <Accordion.Control>{t(`items.${key}.q`)}</Accordion.Control>
            <Accordion.Panel>{t(`items.${key}.a`)}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/my-orders">{t('links.orders')}</Anchor>
        {' · '}
        <Anchor component={Link} to="/about">{t('links.about')}</Anchor>
      </Text>
    </Stack>
  );
}
