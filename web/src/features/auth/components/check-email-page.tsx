import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

/** The check-your-email page after a forgot-password request. */
export function CheckEmailPage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const email = params.get('email');
  return (
    <Stack align="center" gap="md" ta="center">
      <ThemeIcon size={64} radius="xl" variant="light">
        <IconMailForward size={34} />
      </ThemeIcon>
      <Title order={2}>{t('checkEmail.title')}</Title>
      <Text c="dimmed">{email ? t('checkEmail.textWithEmail', { email }) : t('checkEmail.text')}</Text>
      <Text size="sm" c="dimmed">
        {t('checkEmail.spam')}
      </Text>
      <Button component={Link} to="/auth/login" variant="light">
        {t('lost.back')}
      </Button>
    </Stack>
  );
}
