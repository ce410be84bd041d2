import { Alert, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errors';
import { useConfirmEmail } from '../mutations';
import { getAuthStatus } from '../session';

/** The link sent to a new login e-mail (?token=…): the change takes effect, once, on arrival. */
export function ConfirmEmailPage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmail();
  const { mutate } = confirm;
  // The link is single-use: send it once, even when an effect runs twice (StrictMode).
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  if (!token) return <Alert color="red">{t('confirmEmail.missingToken')}</Alert>;
  if (confirm.isError) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('confirmEmail.failedTitle')}</Title>
        <Alert color="red" data-testid="confirm-email-error">
          {errorText(confirm.error, t)}
        </Alert>
      </Stack>
    );
  }
  if (!confirm.isSuccess) {
    return (
      <Stack align="center" gap="md">
        <Loader />
        <Text c="dimmed">{t('confirmEmail.checking')}</Text>
      </Stack>
    );
  }
  const signedIn = getAuthStatus().hasToken;
  return (
    <Stack align="center" gap="md" ta="center" data-testid="confirm-email-done">
      <ThemeIcon size={64} radius="xl" variant="light" color="green">
        <IconMailCheck size={34} />
      </ThemeIcon>
      <Title order={2}>{t('confirmEmail.doneTitle')}</Title>
      <Text c="dimmed">{t('confirmEmail.doneText')}</Text>
      <Button component={Link} to={signedIn ? '/preferences' : '/auth/login'}>
        {signedIn ? t('confirmEmail.toPreferences') : t('confirmEmail.signIn')}
      </Button>
    </Stack>
  );
}
