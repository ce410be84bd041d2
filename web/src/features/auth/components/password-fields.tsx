import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { loadCommonPasswords, validateNewPassword } from '../validation';

interface PasswordValues {
  password: string;
  passwordCheck: string;
}

/** A new password and its check. A common password (the server's list) is said while typing;
 * the form's rules refuse it on submit too, and so does the server. */
export function PasswordFields<T extends PasswordValues>({ form }: { form: UseFormReturnType<T> }): ReactNode {
  const { t } = useTranslation('auth');
  const [listLoaded, setListLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    loadCommonPasswords()
      .then(() => {
        if (live) setListLoaded(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const props = form.getInputProps('password');
  const typed = form.getValues().password;
  const tooCommon = listLoaded && validateNewPassword(typed) === 'validation.passwordTooCommon';
  return (
    <>
      <PasswordInput
        label={t('fields.newPassword')}
        description={t('validation.passwordRules')}
        autoComplete="new-password"
        required
        {...props}
        error={props.error ?? (tooCommon ? t('validation.passwordTooCommon') : undefined)}
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
