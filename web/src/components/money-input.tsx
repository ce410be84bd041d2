import { TextInput } from '@mantine/core';
import type { TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** An amount in major units, as typed: kept as text (Mantine's number input drops the
 * Persian and Arabic-Indic digits a Persian keyboard types), read by the caller with
 * `parseAmount` (i18n/numbers), which takes those digits as the number they show. */
export function MoneyInput({ value, onChange, ...props }: Omit<TextInputProps, 'value' | 'onChange'> & { value: string; onChange: (text: string) => void }): ReactNode {
  return (
    <TextInput
      {...props}
      inputMode="decimal"
      autoComplete="off"
      dir="ltr"
      value={value}
      onChange={(event) => {
        onChange(event.currentTarget.value);
      }}
    />
  );
}
