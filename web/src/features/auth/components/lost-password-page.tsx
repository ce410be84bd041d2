import { Anchor, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { MutationForm } from '../../../components/mutation-form';
import { useForgotPassword } from '../mutations';
import { translated, validateEmail } from '../validation';
import { AuthHeading } from './auth-heading';

/** Forgot password: asks for a reset e-mail (and clears every session piece). */
export function LostPasswordPage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: translated(t, validateEmail) },
  });
  const forgot = useForgotPassword((email) => {
    void navigate(`/auth/recover-password-email?email=${encodeURIComponent(email.trim().toLowerCase())}`);
  });
  return (
    <Stack gap="md">
      <AuthHeading title={t('lost.title')} subtitle={t('lost.subtitle')} />
      <MutationForm
        onSubmit={form.onSubmit((values) => {
          forgot.mutate(values.email);
        })}
        mutation={forgot}
        submitLabel={t('lost.submit')}
      >
        <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} name="email" />
      </MutationForm>
      <Anchor component={Link} to="/auth/login" size="sm" ta="center" className="encore-link-tap" style={{ alignSelf: 'center' }}>
        {t('lost.back')}
      </Anchor>
    </Stack>
  );
}
