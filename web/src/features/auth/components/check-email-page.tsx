import { Button, Text, ThemeIcon } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { StatusPanel } from '../../../components/status-panel';

/** The check-your-email page after a forgot-password request. */
export function CheckEmailPage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const email = params.get('email');
  return (
    <StatusPanel
      mark={
        <ThemeIcon size={64} radius="xl" variant="light">
          <IconMailForward size={34} />
        </ThemeIcon>
      }
      title={t('checkEmail.title')}
      text={email ? t('checkEmail.textWithEmail', { email }) : t('checkEmail.text')}
      action={
        <Button component={Link} to="/auth/login" variant="light">
          {t('lost.back')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {t('checkEmail.spam')}
      </Text>
    </StatusPanel>
  );
}
