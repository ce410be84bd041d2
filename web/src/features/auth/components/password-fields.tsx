import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface PasswordValues {
  password: string;
  passwordCheck: string;
}

export function PasswordFields<T extends PasswordValues>({ form }: { form: UseFormReturnType<T> }): ReactNode {
  const { t } = useTranslation('auth');
  return (
    <>
      <PasswordInput
        label={t('fields.newPassword')}
        description={t('validation.passwordRules')}
        autoComplete="new-password"
        required
        {...form.getInputProps('password')}
        name="password"
      />
      <PasswordInput
        label={t('fields.passwordCheck')}
        autoComplete="new-password"
        required
        {...form.getInputProps('passwordCheck')}
        name="passwordCheck"
      />
    </>
  );
}
