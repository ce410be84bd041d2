import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errors';
import { useResetPassword } from '../mutations';
import { validatePassword, validatePasswordCheck } from '../validation';
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
    validate: {
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
      <div>
        <Title order={2}>{invite ? t('reset.inviteTitle') : t('reset.title')}</Title>
        <Text c="dimmed" size="sm">
          {invite ? t('reset.inviteSubtitle') : t('reset.subtitle')}
        </Text>
      </div>
      <form
        onSubmit={form.onSubmit((values) => {
          reset.mutate(values.password);
        })}
        noValidate
      >
        <Stack gap="sm">
          {reset.isError ? <Alert color="red">{errorText(reset.error, t)}</Alert> : null}
          <PasswordFields form={form} />
          <Button type="submit" loading={reset.isPending} data-testid="reset-submit">
            {invite ? t('reset.inviteSubmit') : t('reset.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
