import { Alert, Button, Stack } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/errors';

interface MutationFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The mutation the form submits: its error shows above the fields, its pending state on the button. */
  mutation: { isError: boolean; error: unknown; isPending: boolean };
  submitLabel: string;
  /** Replaces the server's text, e.g. a 409 read as "User already exists". */
  errorMessage?: string;
  /** Prefix of the test ids: `<testId>-error` on the refusal, `<testId>-submit` on the button. */
  testId?: string;
  children: ReactNode;
}

/** A form that submits one mutation: its refusal above the fields, the submit button below. */
export function MutationForm(props: MutationFormProps): ReactNode {
  const { t } = useTranslation();
  const { mutation } = props;
  return (
    <form onSubmit={props.onSubmit} noValidate>
      <Stack gap="sm">
        {mutation.isError ? (
          <Alert color="red" data-testid={props.testId && `${props.testId}-error`}>
            {props.errorMessage ?? errorText(mutation.error, t)}
          </Alert>
        ) : null}
        {props.children}
        <Button type="submit" loading={mutation.isPending} data-testid={props.testId && `${props.testId}-submit`}>
          {props.submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
