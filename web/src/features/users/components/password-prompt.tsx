import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/form-actions';

export interface PasswordPrompt {
  /** Opens the dialog; resolves with the password typed, or null when cancelled. */
  ask: () => Promise<string | null>;
  /** Render it once in the component that asks. */
  dialog: ReactNode;
}

/** Step-up: changing the login e-mail, the phone or two-step verification (and approving a QR
 * sign-in) takes the current password of the person acting, even when signed in. */
export function usePasswordPrompt(): PasswordPrompt {
  const { t } = useTranslation('account');
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState('');
  const resolver = useRef<((password: string | null) => void) | null>(null);
  const finish = (password: string | null): void => {
    resolver.current?.(password);
    resolver.current = null;
    setOpened(false);
    setValue('');
  };
  const ask = (): Promise<string | null> =>
    new Promise((resolve) => {
      resolver.current?.(null);
      resolver.current = resolve;
      setValue('');
      setOpened(true);
    });
  const dialog = (
    <Modal
      opened={opened}
      onClose={() => {
        finish(null);
      }}
      title={t('stepUp.title')}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value) finish(value);
        }}
        noValidate
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('stepUp.text')}
          </Text>
          <PasswordInput
            label={t('stepUp.password')}
            autoComplete="current-password"
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
            }}
            data-autofocus
            data-testid="step-up-password"
          />
          <FormActions
            cancelLabel={t('stepUp.cancel')}
            onCancel={() => {
              finish(null);
            }}
            submitLabel={t('stepUp.confirm')}
            disabled={!value}
            submitTestId="step-up-submit"
          />
        </Stack>
      </form>
    </Modal>
  );
  return { ask, dialog };
}
