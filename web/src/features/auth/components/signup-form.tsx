import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../../lib/errors';
import type { SignUpValues } from '../mutations';
import { validateEmail, validatePassword, validatePasswordCheck } from '../validation';
import { PasswordFields } from './password-fields';

interface SignUpFormProps {
  /** Ask for the full name too (sign-up does, the OAuth registration does not). */
  withName: boolean;
  submitLabel: string;
  mutation: UseMutationResult<unknown, Error, SignUpValues>;
}

/** The one sign-up form: fields, validation and submit; a 409 reads "User already exists".
 * The page owns the route, the texts and what happens after submit (its mutation). */
export function SignUpForm({ withName, submitLabel, mutation }: SignUpFormProps): ReactNode {
  const { t } = useTranslation('auth');
  const form = useForm<SignUpValues>({
    initialValues: { fullname: '', email: '', password: '', passwordCheck: '' },
    validate: {
      fullname: (value) => (!withName || value.trim() ? null : t('validation.nameRequired')),
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
  const conflict = mutation.error instanceof ApiError && mutation.error.status === 409;
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        mutation.mutate(values);
      })}
      noValidate
    >
      <Stack gap="sm">
        {mutation.isError ? (
          <Alert color="red" data-testid="signup-error">
            {conflict ? t('signup.exists') : errorText(mutation.error, t)}
          </Alert>
        ) : null}
        {withName ? (
          <TextInput label={t('fields.fullname')} autoComplete="name" required {...form.getInputProps('fullname')} name="fullname" />
        ) : null}
        <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} name="email" />
        <PasswordFields form={form} />
        <Button type="submit" loading={mutation.isPending} data-testid="signup-submit">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
