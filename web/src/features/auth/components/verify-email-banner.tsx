import { Alert, Button, Group, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useResendVerification } from '../mutations';

/** Shown in the signed-in shell until the account's e-mail address is verified. */
export function VerifyEmailBanner({ email }: { email: string }): ReactNode {
  const { t } = useTranslation('auth');
  const resend = useResendVerification(email);
  return (
    <Alert color="yellow" icon={<IconMailExclamation />} title={t('verifyBanner.title')} mb="md" data-testid="verify-email-banner">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('verifyBanner.text', { email })}</Text>
        <Button
          size="xs"
          variant="light"
          loading={resend.isPending}
          onClick={() => {
            resend.mutate();
          }}
          data-testid="verify-email-resend"
        >
          {t('verifyBanner.resend')}
        </Button>
      </Group>
    </Alert>
  );
}
