import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

interface FormActionsProps {
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  /** Shows the submit button busy. */
  saving?: boolean;
  disabled?: boolean;
  submitTestId?: string;
  mt?: string;
}

/** Cancel and submit, right-aligned, at the foot of a dialog's form. */
export function FormActions(props: FormActionsProps): ReactNode {
  return (
    <Group justify="flex-end" mt={props.mt}>
      <Button variant="default" onClick={props.onCancel}>
        {props.cancelLabel}
      </Button>
      <Button type="submit" loading={props.saving} disabled={props.disabled} data-testid={props.submitTestId}>
        {props.submitLabel}
      </Button>
    </Group>
  );
}
