import { Alert, Anchor, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MutationForm } from '../../../components/mutation-form';
import { useResetPassword } from '../mutations';
import { newPasswordRules } from '../validation';
import { AuthHeading } from './auth-heading';
import { PasswordFields } from './password-fields';

/** Reset page (?token=…); with &invite=1 it is an invited person choosing a first password. */
export function RecoverPasswordPage(): ReactNode {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invite = params.get('invite') === '1';
  const form = useForm({
    initialValues: { password: '', passwordCheck: '' },
    validate: newPasswordRules(t),
  });
  const reset = useResetPassword(token, () => void navigate('/auth/login'));
  if (!token) {
    return (
      <Stack>
        <Alert color="red">{t('reset.missingToken')}</Alert>
        <Anchor component={Link} to="/auth/lostpassword">
          {t('reset.requestNew')}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <AuthHeading
        title={invite ? t('reset.inviteTitle') : t('reset.title')}
        subtitle={invite ? t('reset.inviteSubtitle') : t('reset.subtitle')}
      />
      <MutationForm
        onSubmit={form.onSubmit((values) => {
          reset.mutate(values.password);
        })}
        mutation={reset}
        submitLabel={invite ? t('reset.inviteSubmit') : t('reset.submit')}
        testId="reset"
      >
        <PasswordFields form={form} />
      </MutationForm>
    </Stack>
  );
}
