import { Alert, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errors';
import { useVerifyEmail } from '../mutations';
import { getAuthStatus } from '../session';

/** The welcome e-mail's link (?token=…): verifies the address once, on arrival. */
export function VerifyEmailPage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // The link is single-use: send it once, even when an effect runs twice (StrictMode).
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  if (!token) return <Alert color="red">{t('verifyEmail.missingToken')}</Alert>;
  if (verify.isError) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('verifyEmail.failedTitle')}</Title>
        <Alert color="red" data-testid="verify-email-error">
          {errorText(verify.error, t)}
        </Alert>
        <Button component={Link} to="/preferences" variant="light">
          {t('verifyEmail.askAgain')}
        </Button>
      </Stack>
    );
  }
  if (!verify.isSuccess) {
    return (
      <Stack align="center" gap="md">
        <Loader />
        <Text c="dimmed">{t('verifyEmail.checking')}</Text>
      </Stack>
    );
  }
  const signedIn = getAuthStatus().hasToken;
  return (
    <Stack align="center" gap="md" ta="center" data-testid="verify-email-done">
      <ThemeIcon size={64} radius="xl" variant="light" color="green">
        <IconMailCheck size={34} />
      </ThemeIcon>
      <Title order={2}>{t('verifyEmail.doneTitle')}</Title>
      <Text c="dimmed">{t('verifyEmail.doneText')}</Text>
      <Button component={Link} to={signedIn ? '/dashboard' : '/auth/login'}>
        {signedIn ? t('verifyEmail.toDashboard') : t('verifyEmail.signIn')}
      </Button>
    </Stack>
  );
}
