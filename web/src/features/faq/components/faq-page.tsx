import { Accordion, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export const FAQ_KEYS = ['tickets', 'window', 'devices', 'secondFactor', 'lostPassword', 'invite', 'qr', 'roles', 'language', 'selfHost'] as const;

export function FaqPage(): ReactNode {
  const { t } = useTranslation('faq');
  return (
    <Stack gap="lg">
      <PageHeader title={t('title')} description={t('subtitle')} />
      <Accordion variant="separated" radius="md">
        {FAQ_KEYS.map((key) => (
          <Accordion.Item key={key} value={key}>
            <Accordion.Control>{t(`items.${key}.q`)}</Accordion.Control>
            <Accordion.Panel>{t(`items.${key}.a`)}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
