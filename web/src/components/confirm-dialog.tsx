import { Button, Group, Modal, Stack } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  opened: boolean;
  /** Closing without confirming (the cancel button, Escape, the overlay). */
  onClose: () => void;
  title: ReactNode;
  /** What is about to happen, and any field the confirmation needs (a refund's reason). */
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  /** Shows the confirm button busy while the action runs. */
  busy?: boolean;
  color?: MantineColor;
  confirmTestId?: string;
  centered?: boolean;
}

/** "Are you sure?" before an action that cannot be undone: the text, then cancel and the
 * action, right-aligned. */
export function ConfirmDialog(props: ConfirmDialogProps): ReactNode {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered={props.centered}>
      <Stack>
        {props.children}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {props.cancelLabel}
          </Button>
          <Button color={props.color ?? 'red'} loading={props.busy} onClick={props.onConfirm} data-testid={props.confirmTestId}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
