import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, errorText } from '../../../lib/errors';
import { splitFullname } from '../../users/model';
import { signUp } from '../api';
import { validateEmail, validatePassword, validatePasswordCheck } from '../validation';
import { PasswordFields } from './password-fields';

/** Sign-up: name, e-mail, password and password check; 409 → "User already exists". */
export function SignupPage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { fullname: '', email: '', password: '', passwordCheck: '' },
    validate: {
      fullname: (value) => (value.trim() ? null : t('validation.nameRequired')),
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
  const signup = useMutation({
    mutationFn: (values: typeof form.values) =>
      signUp({ email: values.email, password: values.password, ...splitFullname(values.fullname) }),
    onSuccess: () => {
      notifications.show({ color: 'green', title: t('signup.doneTitle'), message: t('signup.doneText') });
      void navigate('/auth/login');
    },
  });
  const conflict = signup.error instanceof ApiError && signup.error.status === 409;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('signup.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('signup.subtitle')}
        </Text>
      </div>
      <form
        onSubmit={form.onSubmit((values) => {
          signup.mutate(values);
        })}
        noValidate
      >
        <Stack gap="sm">
          {signup.isError ? (
            <Alert color="red" data-testid="signup-error">
              {conflict ? t('signup.exists') : errorText(signup.error, t)}
            </Alert>
          ) : null}
          <TextInput label={t('fields.fullname')} autoComplete="name" required {...form.getInputProps('fullname')} name="fullname" />
          <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} name="email" />
          <PasswordFields form={form} />
          <Button type="submit" loading={signup.isPending} data-testid="signup-submit">
            {t('signup.submit')}
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
