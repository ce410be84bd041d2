import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorText } from '../../../lib/errors';
import { useForgotPassword } from '../mutations';
import { validateEmail } from '../validation';

/** Forgot password: asks for a reset e-mail (and clears every session piece). */
export function LostPasswordPage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (value) => {
        const key = validateEmail(value);
        return key ? t(key) : null;
      },
    },
  });
  const forgot = useForgotPassword((email) => {
    void navigate(`/auth/recover-password-email?email=${encodeURIComponent(email.trim().toLowerCase())}`);
  });
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('lost.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('lost.subtitle')}
        </Text>
      </div>
      <form
        onSubmit={form.onSubmit((values) => {
          forgot.mutate(values.email);
        })}
        noValidate
      >
        <Stack gap="sm">
          {forgot.isError ? <Alert color="red">{errorText(forgot.error, t)}</Alert> : null}
          <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} name="email" />
          <Button type="submit" loading={forgot.isPending}>
            {t('lost.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/auth/login" size="sm" ta="center">
        {t('lost.back')}
      </Anchor>
    </Stack>
  );
}
