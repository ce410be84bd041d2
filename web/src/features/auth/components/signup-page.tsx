import { Anchor, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authLink } from '../../concert/return-path';
import { useRegister, useSignUp } from '../mutations';
import { AuthHeading } from './auth-heading';
import { SignUpForm } from './signup-form';

/** Sign-up (name, e-mail, password and check) or the OAuth `register` call (no name): one page,
 * two texts and two calls; 409 → "User already exists". */
function SignUpScreen({ kind }: { kind: 'signup' | 'registrate' }): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Where the visitor came from (a concert's page): signing in afterwards goes back there.
  const back = params.get('redirect');
  const email = useRef(params.get('email') ?? '');
  const toLogin = (): void => void navigate(authLink('/auth/login', back, email.current));
  const signup = useSignUp(toLogin);
  const registration = useRegister(toLogin);
  return (
    <Stack gap="md">
      <AuthHeading title={t(`${kind}.title`)} subtitle={t(`${kind}.subtitle`)} />
      <SignUpForm withName={kind === 'signup'} submitLabel={t(`${kind}.submit`)} mutation={kind === 'signup' ? signup : registration}
        initialEmail={params.get('email') ?? ''}
        onEmailChange={(typed) => {
          email.current = typed;
        }}
      />
      <Text size="sm" ta="center">
        {t('signup.haveAccount')}{' '}
        <Anchor
          component={Link}
          to="/auth/login"
          onClick={(e) => {
            // The e-mail typed so far goes along (read at the click, not at render).
            e.preventDefault();
            void navigate(authLink('/auth/login', back, email.current));
          }}
        >
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
