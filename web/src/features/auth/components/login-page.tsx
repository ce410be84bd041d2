import { Anchor, Divider, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCallback, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { safeRedirect } from '../redirect';
import { MutationForm } from '../../../components/mutation-form';
import { useSignIn } from '../mutations';
import { authKeys } from '../queries';
import { eventKeys } from '../../events/queries';
import { translated, validateEmail } from '../validation';
import { AuthHeading } from './auth-heading';
import { authLink } from '../../concert/return-path';
import { MfaStep } from './mfa-step';
import { QrSignIn } from './qr-sign-in';

export function useFinishSignIn(): () => void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return () => {
    queryClient.removeQueries({ queryKey: authKeys.me });
    // Concerts read while signed out say nothing of the reader's tickets: read them again.
    queryClient.removeQueries({ queryKey: eventKeys.all });
    void navigate(safeRedirect(params.get('redirect')), { replace: true });
  };
}

export function LoginPage(): ReactNode {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const [step, setStep] = useState<'credentials' | 'mfa'>('credentials');
  const finish = useFinishSignIn();
  const knownEmail = Boolean(params.get('email'));
  const form = useForm({
    initialValues: { email: params.get('email') ?? '', password: '' },
    validate: {
      email: translated(t, validateEmail),
      password: (value) => (value ? null : t('validation.passwordRequired')),
    },
  });
  const toSecondFactor = useCallback(() => {
    setStep('mfa');
  }, []);
  const login = useSignIn((result) => {
    if (result.kind === 'mfa-required') setStep('mfa');
    else finish();
  });

  if (step === 'mfa') {
    return (
      <MfaStep
        onDone={finish}
        onCancel={() => {
          setStep('credentials');
        }}
      />
    );
  }

  return (
    <Stack gap="md">
      <AuthHeading title={t('login.title')} subtitle={t('login.subtitle')} />
      <MutationForm
        onSubmit={form.onSubmit((values) => {
          login.mutate(values);
        })}
        mutation={login}
                submitLabel={t('login.submit')}
        testId="login"
      >
        {/* Back from sign-up (or from a page that knew the e-mail): only the password is left to type. */}
        <TextInput label={t('fields.email')} type="email" autoComplete="username" required autoFocus={!knownEmail} {...form.getInputProps('email')} name="email" />
        <PasswordInput label={t('fields.password')} autoComplete="current-password" required autoFocus={knownEmail} {...form.getInputProps('password')} name="password" />
        <Group justify="flex-end">
          <Anchor component={Link} to="/auth/lostpassword" size="sm" className="encore-link-tap">
            {t('login.forgot')}
          </Anchor>
        </Group>
      </MutationForm>
      <Divider label={t('login.or')} labelPosition="center" />
      <QrSignIn onSignedIn={finish} onSecondFactor={toSecondFactor} />
      <Text size="sm" ta="center">
        {t('login.noAccount')}{' '}
        <Anchor component={Link} to={authLink('/auth/signup', params.get('redirect'), form.values.email)} data-testid="login-sign-up">
          {t('login.signUp')}
        </Anchor>
      </Text>
    </Stack>
  );
}
