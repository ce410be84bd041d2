import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors';
import type { BankDetails, PayoutAccount } from '../api';
import { useSaveBankDetails, useStartOnboarding } from '../mutations';
import { bankDetailsQueryOptions, payoutAccountQueryOptions } from '../queries';

/** Where a project stands with Stripe Connect: not connected, onboarding unfinished, or
 * connected (sales go to it). */
export type ConnectState = 'none' | 'onboarding' | 'connected';

export function connectState(account: PayoutAccount['account']): ConnectState {
  if (!account) return 'none';
  return account.chargesEnabled ? 'connected' : 'onboarding';
}

/** "Get paid": with Stripe Connect, the project's connected account (connect, continue
 * onboarding, or connected with its state); without it, the bank details staff pay the
 * project to. For the project's members and staff. */
export function GetPaid({ projectId }: { projectId: string }): ReactNode {
  const { t } = useTranslation('statements');
  const account = useQuery(payoutAccountQueryOptions(projectId));
  return (
    <Card withBorder padding="lg" data-testid="get-paid">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('getPaid.title')}
        </Title>
        {account.isPending ? <Skeleton h={80} /> : null}
        {account.isError ? <Alert color="red">{errorText(account.error, t)}</Alert> : null}
        {account.isSuccess && account.data.connect ? <Connect projectId={projectId} account={account.data.account} /> : null}
        {account.isSuccess && !account.data.connect ? <BankDetailsLoader projectId={projectId} /> : null}
      </Stack>
    </Card>
  );
}

function Connect({ projectId, account }: { projectId: string; account: PayoutAccount['account'] }): ReactNode {
  const { t } = useTranslation('statements');
  const onboard = useStartOnboarding(projectId);
  const state = connectState(account);
  const go = (): void => {
    onboard.mutate(undefined, {
      onSuccess: (answer) => {
        window.location.assign(answer.url);
      },
    });
  };
  return (
    <Stack gap="sm" data-testid="get-paid-connect" data-state={state}>
      <Text size="sm" c="dimmed">
        {t(`getPaid.connect.${state}`)}
      </Text>
      {account ? (
        <Group gap="xs">
          <Badge color={account.chargesEnabled ? 'green' : 'gray'} variant="light" data-testid="get-paid-charges">
            {t(account.chargesEnabled ? 'getPaid.charges.on' : 'getPaid.charges.off')}
          </Badge>
          <Badge color={account.payoutsEnabled ? 'green' : 'gray'} variant="light" data-testid="get-paid-payouts">
            {t(account.payoutsEnabled ? 'getPaid.payouts.on' : 'getPaid.payouts.off')}
          </Badge>
          <Badge color={account.detailsSubmitted ? 'green' : 'yellow'} variant="light" data-testid="get-paid-details">
            {t(account.detailsSubmitted ? 'getPaid.details.on' : 'getPaid.details.off')}
          </Badge>
        </Group>
      ) : null}
      {onboard.isError ? (
        <Alert color="red" data-testid="get-paid-error">
          {errorText(onboard.error, t)}
        </Alert>
      ) : null}
      {state !== 'connected' || !account?.payoutsEnabled ? (
        <Group>
          <Button loading={onboard.isPending} onClick={go} data-testid="get-paid-onboard">
            {t(state === 'none' ? 'getPaid.actions.connect' : 'getPaid.actions.continue')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function BankDetailsLoader({ projectId }: { projectId: string }): ReactNode {
  const { t } = useTranslation('statements');
  const bank = useQuery(bankDetailsQueryOptions(projectId));
  if (bank.isPending) return <Skeleton h={160} />;
  if (bank.isError) return <Alert color="red">{errorText(bank.error, t)}</Alert>;
  return <BankDetailsForm key={bank.data.updatedAt ?? 'new'} projectId={projectId} saved={bank.data} />;
}

/** The project's bank details, as its reader may see them (the number masked for members):
 * sent back unchanged, a masked number keeps the stored one. */
function BankDetailsForm({ projectId, saved }: { projectId: string; saved: BankDetails }): ReactNode {
  const { t } = useTranslation('statements');
  const [holder, setHolder] = useState(saved.accountHolder);
  const [number, setNumber] = useState(saved.accountNumber);
  const [note, setNote] = useState(saved.note);
  const save = useSaveBankDetails(projectId);
  return (
    <form
      noValidate
      data-testid="bank-details"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { accountHolder: holder, accountNumber: number, note },
          { onSuccess: () => notifications.show({ color: 'green', message: t('getPaid.bank.saved') }) },
        );
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('getPaid.bank.intro')}
        </Text>
        {save.isError ? (
          <Alert color="red" data-testid="bank-details-error">
            {errorText(save.error, t)}
          </Alert>
        ) : null}
        <TextInput label={t('getPaid.bank.holder')} value={holder} maxLength={200} onChange={(e) => { setHolder(e.currentTarget.value); }} data-testid="bank-holder" />
        <TextInput
          label={t('getPaid.bank.number')}
          description={t('getPaid.bank.numberHint')}
          value={number}
          dir="ltr"
          autoComplete="off"
          onChange={(e) => { setNumber(e.currentTarget.value); }}
          data-testid="bank-number"
        />
        <Textarea label={t('getPaid.bank.note')} value={note} maxLength={2000} rows={2} onChange={(e) => { setNote(e.currentTarget.value); }} data-testid="bank-note" />
        <Group>
          <Button type="submit" loading={save.isPending} data-testid="bank-save">
            {t('getPaid.bank.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
