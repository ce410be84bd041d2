import { Anchor, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useRegister, useSignUp } from '../mutations';
import { AuthHeading } from './auth-heading';
import { SignUpForm } from './signup-form';

/** Sign-up (name, e-mail, password and check) or the OAuth `register` call (no name): one page,
 * two texts and two calls; 409 → "User already exists". */
function SignUpScreen({ kind }: { kind: 'signup' | 'registrate' }): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const toLogin = (): void => void navigate('/auth/login');
  const signup = useSignUp(toLogin);
  const registration = useRegister(toLogin);
  return (
    <Stack gap="md">
      <AuthHeading title={t(`${kind}.title`)} subtitle={t(`${kind}.subtitle`)} />
      <SignUpForm withName={kind === 'signup'} submitLabel={t(`${kind}.submit`)} mutation={kind === 'signup' ? signup : registration} />
      <Text size="sm" ta="center">
        {t('signup.haveAccount')}{' '}
        <Anchor component={Link} to="/auth/login">
          {t('signup.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}

export function SignupPage(): ReactNode {
  return <SignUpScreen kind="signup" />;
}

/** Registration through the OAuth `register` call: e-mail, password and a password check. */
export function RegistratePage(): ReactNode {
  return <SignUpScreen kind="registrate" />;
}
