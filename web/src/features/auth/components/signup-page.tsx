import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSignUp } from '../mutations';
import { SignUpForm } from './signup-form';

/** Sign-up: name, e-mail, password and password check; 409 → "User already exists". */
export function SignupPage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const signup = useSignUp(() => void navigate('/auth/login'));
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('signup.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('signup.subtitle')}
        </Text>
      </div>
      <SignUpForm withName submitLabel={t('signup.submit')} mutation={signup} />
      <Text size="sm" ta="center">
        {t('signup.haveAccount')}{' '}
        <Anchor component={Link} to="/auth/login">
          {t('signup.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}
