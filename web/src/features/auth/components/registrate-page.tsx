import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, errorText } from '../../../lib/errors';
import { register } from '../api';
import { validateEmail, validatePassword, validatePasswordCheck } from '../validation';
import { PasswordFields } from './password-fields';

/** Registration through the OAuth `register` call: e-mail, password and a password check. */
export function RegistratePage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { email: '', password: '', passwordCheck: '' },
    validate: {
      email: (value) => {
        const key = validateEmail(value);
        return key ? t(key) : null;
      },
      password: (value) => {
        const key = validatePassword(value);
        return key ? t(key) : null;
      },
      passwordCheck: (value, values) => {
        const key = validatePasswordCheck(value, values.password);
        return key ? t(key) : null;
      },
    },
  });
  const registration = useMutation({
    mutationFn: (values: typeof form.values) => register(values.email, values.password),
    onSuccess: () => {
      notifications.show({ color: 'green', title: t('signup.doneTitle'), message: t('signup.doneText') });
      void navigate('/auth/login');
    },
  });
  const conflict = registration.error instanceof ApiError && registration.error.status === 409;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('registrate.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('registrate.subtitle')}
        </Text>
      </div>
      <form
        onSubmit={form.onSubmit((values) => {
          registration.mutate(values);
        })}
        noValidate
      >
        <Stack gap="sm">
          {registration.isError ? (
            <Alert color="red">{conflict ? t('signup.exists') : errorText(registration.error, t)}</Alert>
          ) : null}
          <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} name="email" />
          <PasswordFields form={form} />
          <Button type="submit" loading={registration.isPending}>
            {t('registrate.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        {t('signup.haveAccount')}{' '}
        <Anchor component={Link} to="/auth/login">
          {t('signup.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}
