import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCash } from '@tabler/icons-react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/form-actions';
import { MoneyInput } from '../../../components/money-input';
import { localeOf } from '../../../i18n/languages';
import { amountText, parseAmount } from '../../../i18n/numbers';
import { errorText } from '../../../lib/errors';
import { currencyDigits, formatPrice } from '../../cart/model';
import type { Statement } from '../api';
import { owedOn } from '../model';
import type { Period } from '../model';
import { useRecordPayout } from '../mutations';

/** Longest reference the server keeps. */
export const REFERENCE_MAX = 200;

interface PayoutFormProps {
  projectId: string;
  period: Period;
  statement: Statement;
}

/** Staff, on a statement still owing something: "Record a payout" opens a small form, the
 * amount (the money input, in the statement's currency) filled with what is owed and an
 * optional reference. The server refuses more than is owed (409, saying how much) or an
 * amount not above zero (422): its text shows in the form, what was typed kept. Once
 * recorded, the statements are read again and the form closes. */
export function PayoutForm({ projectId, period, statement }: PayoutFormProps): ReactNode {
  const { t, i18n } = useTranslation('statements');
  const locale = localeOf(i18n.language);
  const { currency } = statement;
  const digits = currencyDigits(currency);
  const owed = owedOn(statement);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const record = useRecordPayout(projectId);

  if (!open) {
    if (owed <= 0) return null;
    return (
      <Group justify="flex-end" mt="md" data-print="hide">
        <Button
          variant="light"
          leftSection={<IconCash size={16} />}
          onClick={() => {
            setAmount(amountText(owed, digits));
            setReference('');
            record.reset();
            setOpen(true);
          }}
          data-testid="payout-open"
        >
          {t('payout.open')}
        </Button>
      </Group>
    );
  }

  return (
    <form
      noValidate
      data-print="hide"
      data-testid="payout-form"
      onSubmit={(event) => {
        event.preventDefault();
        // What is not an amount (nothing typed) is sent as 0, which the server refuses in its words.
        record.mutate(
          { period, currency, amount: parseAmount(amount, digits) ?? 0, reference: reference.trim() },
          {
            onSuccess: () => {
              setOpen(false);
              notifications.show({ color: 'green', message: t('payout.saved') });
            },
          },
        );
      }}
    >
      <Stack gap="sm" mt="md">
        {record.isError ? (
          <Alert color="red" data-testid="payout-error">
            {errorText(record.error, t)}
          </Alert>
        ) : null}
        <MoneyInput
          label={t('payout.amount', { currency })}
          description={t('payout.amountHint', { owed: formatPrice(owed, currency, locale) })}
          withAsterisk
          name="amount"
          value={amount}
          onChange={setAmount}
          data-testid="payout-amount"
        />
        <TextInput
          label={t('payout.reference')}
          description={t('payout.referenceHint', { max: REFERENCE_MAX })}
          name="reference"
          maxLength={REFERENCE_MAX}
          dir="auto"
          value={reference}
          onChange={(event) => {
            setReference(event.currentTarget.value);
          }}
          data-testid="payout-reference"
        />
        <FormActions
          cancelLabel={t('payout.cancel')}
          onCancel={() => {
            setOpen(false);
            record.reset();
          }}
          submitLabel={t('payout.save')}
          saving={record.isPending}
          submitTestId="payout-save"
        />
      </Stack>
    </form>
  );
}
