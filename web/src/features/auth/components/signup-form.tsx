import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MutationForm } from '../../../components/mutation-form';
import { ApiError } from '../../../lib/errors';
import type { SignUpValues } from '../mutations';
import { newPasswordRules, translated, validateEmail } from '../validation';
import { PasswordFields } from './password-fields';

interface SignUpFormProps {
  /** Ask for the full name too (sign-up does, the OAuth registration does not). */
  withName: boolean;
  submitLabel: string;
  mutation: UseMutationResult<unknown, Error, SignUpValues>;
  /** The e-mail typed on the sign-in page, carried over. */
  initialEmail?: string;
  /** Told the e-mail as it is typed (carried to the sign-in page). */
  onEmailChange?: (email: string) => void;
}

/** The one sign-up form: fields, validation and submit; a 409 reads "User already exists".
 * The page owns the route, the texts and what happens after submit (its mutation). */
export function SignUpForm({ withName, submitLabel, mutation, initialEmail = '', onEmailChange }: SignUpFormProps): ReactNode {
  const { t } = useTranslation('auth');
  const form = useForm<SignUpValues>({
    initialValues: { fullname: '', email: initialEmail, password: '', passwordCheck: '' },
    onValuesChange: (values) => onEmailChange?.(values.email),
    validate: {
      fullname: (value) => (!withName || value.trim() ? null : t('validation.nameRequired')),
      email: translated(t, validateEmail),
      ...newPasswordRules(t),
    },
  });
  const conflict = mutation.error instanceof ApiError && mutation.error.status === 409;
  return (
    <MutationForm
      onSubmit={form.onSubmit((values) => {
        mutation.mutate(values);
      })}
      mutation={mutation}
      errorMessage={conflict ? t('signup.exists') : undefined}
            submitLabel={submitLabel}
      testId="signup"
    >
      {withName ? (
        <TextInput label={t('fields.fullname')} autoComplete="name" required {...form.getInputProps('fullname')} name="fullname" />
      ) : null}
      <TextInput label={t('fields.email')} type="email" autoComplete="username" required {...form.getInputProps('email')} name="email" />
      <PasswordFields form={form} />
    </MutationForm>
  );
}
