import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useRegister } from '../mutations';
import { SignUpForm } from './signup-form';

/** Registration through the OAuth `register` call: e-mail, password and a password check. */
export function RegistratePage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const registration = useRegister(() => void navigate('/auth/login'));
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('registrate.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('registrate.subtitle')}
        </Text>
      </div>
      <SignUpForm withName={false} submitLabel={t('registrate.submit')} mutation={registration} />
      <Text size="sm" ta="center">
        {t('signup.haveAccount')}{' '}
        <Anchor component={Link} to="/auth/login">
          {t('signup.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}
