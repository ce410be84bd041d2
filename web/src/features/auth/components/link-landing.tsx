import { Alert, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { StatusPanel } from '../../../components/status-panel';
import { errorText } from '../../../lib/errors';
import { getAuthStatus } from '../session';

/** Per link: the test ids' prefix, and where a signed-in person goes next (with the button's text). */
const LINKS = {
  verifyEmail: { testId: 'verify-email', next: '/dashboard', nextLabel: 'verifyEmail.toDashboard' },
  confirmEmail: { testId: 'confirm-email', next: '/preferences', nextLabel: 'confirmEmail.toPreferences' },
} as const;

interface LinkLandingProps {
  /** Spends the link's token. */
  spend: UseMutationResult<unknown, Error, string>;
  /** Which link: also the texts' area in the auth namespace. */
  texts: keyof typeof LINKS;
  /** Shown under a refusal, e.g. a way to ask for a new link. */
  onFailure?: ReactNode;
}

/** The page an e-mailed link (?token=…) opens: spends the token once, on arrival, and says how it went. */
export function LinkLanding({ spend, texts, onFailure }: LinkLandingProps): ReactNode {
  const { t } = useTranslation('auth');
  const { testId, next, nextLabel } = LINKS[texts];
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { mutate } = spend;
  // The link is single-use: send it once, even when an effect runs twice (StrictMode).
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  if (!token) return <Alert color="red">{t(`${texts}.missingToken`)}</Alert>;
  if (spend.isError) {
    return (
      <Stack gap="md">
        <Title order={2}>{t(`${texts}.failedTitle`)}</Title>
        <Alert color="red" data-testid={`${testId}-error`}>
          {errorText(spend.error, t)}
        </Alert>
        {onFailure}
      </Stack>
    );
  }
  if (!spend.isSuccess) {
    return (
      <Stack align="center" gap="md">
        <Loader />
        <Text c="dimmed">{t(`${texts}.checking`)}</Text>
      </Stack>
    );
  }
  const signedIn = getAuthStatus().hasToken;
  return (
    <StatusPanel
      testId={`${testId}-done`}
      mark={
        <ThemeIcon size={64} radius="xl" variant="light" color="green">
          <IconMailCheck size={34} />
        </ThemeIcon>
      }
      title={t(`${texts}.doneTitle`)}
      text={t(`${texts}.doneText`)}
      action={
        <Button component={Link} to={signedIn ? next : '/auth/login'}>
          {signedIn ? t(nextLabel) : t(`${texts}.signIn`)}
        </Button>
      }
    />
  );
}
