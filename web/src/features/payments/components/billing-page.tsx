import { Alert, Button, Group, SimpleGrid, Skeleton, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingBank, IconMapPin } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import type { BankDetails, Billing, BillingAddress } from '../model';
import { useSaveBilling } from '../mutations';
import { billingQueryOptions } from '../queries';

interface BillingTabProps {
  part: 'address' | 'bank';
  onSubmit: FormEventHandler<HTMLFormElement>;
  error: string | null;
  saving: boolean;
  children: ReactNode;
}

/** One tab's form: the refusal, the fields, and Save (both tabs save the whole record). */
function BillingTab({ part, onSubmit, error, saving, children }: BillingTabProps): ReactNode {
  const { t } = useTranslation('payments');
  return (
    <form onSubmit={onSubmit} data-testid={`billing-${part}-form`}>
      <Stack maw={720}>
        {error ? <Alert color="red" data-testid={`billing-${part}-error`}>{error}</Alert> : null}
        {children}
        <Group justify="flex-end">
          <Button type="submit" loading={saving}>
            {t('billing.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddressForm({ billing }: { billing: Billing }): ReactNode {
  const { t } = useTranslation('payments');
  const form = useForm<BillingAddress>({ initialValues: billing.address });
  const { mutation, error } = useSaveBilling((saved) => { form.setValues(saved.address); form.resetDirty(saved.address); });
  return (
    <BillingTab part="address" onSubmit={form.onSubmit((address) => { mutation.mutate({ address, bank: billing.bank }); })} error={error} saving={mutation.isPending}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('billing.name')} name="name" {...form.getInputProps('name')} />
        <TextInput label={t('billing.email')} name="email" type="email" {...form.getInputProps('email')} />
      </SimpleGrid>
      <TextInput label={t('billing.address')} name="address" {...form.getInputProps('address')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('billing.city')} name="city" {...form.getInputProps('city')} />
        <TextInput label={t('billing.country')} name="country" {...form.getInputProps('country')} />
      </SimpleGrid>
      <Textarea label={t('billing.company')} name="company" autosize minRows={2} {...form.getInputProps('company')} />
    </BillingTab>
  );
}

function BankForm({ billing }: { billing: Billing }): ReactNode {
  const { t } = useTranslation('payments');
  const form = useForm<BankDetails>({ initialValues: billing.bank });
  const { mutation, error } = useSaveBilling((saved) => { form.setValues(saved.bank); form.resetDirty(saved.bank); });
  return (
    // The account number comes back masked; sending the masked value unchanged keeps it.
    <BillingTab part="bank" onSubmit={form.onSubmit((bank) => { mutation.mutate({ address: billing.address, bank }); })} error={error} saving={mutation.isPending}>
      {billing.bank.accountNumberUnavailable ? (
        <Alert color="orange" data-testid="billing-account-unavailable">
          {t('billing.accountNumberUnavailable')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('billing.bankName')} name="bankName" {...form.getInputProps('bankName')} />
        <TextInput label={t('billing.accountName')} name="accountName" {...form.getInputProps('accountName')} />
        <TextInput label={t('billing.sortCode')} name="sortCode" {...form.getInputProps('sortCode')} />
        <TextInput label={t('billing.accountNumber')} description={t('billing.accountNumberHint')} name="accountNumber" {...form.getInputProps('accountNumber')} />
      </SimpleGrid>
      <Textarea label={t('billing.notes')} name="notes" autosize minRows={2} {...form.getInputProps('notes')} />
    </BillingTab>
  );
}

/** Billing has two tabs: billing address and bank details (spec 2, 3), saved on the server. */
export function BillingPage(): ReactNode {
  const { t } = useTranslation();
  const billing = useQuery(billingQueryOptions());
  return (
    <>
      <PageHeader title={t('nav.billing')} description={t('pages.billing.intro')} />
      {billing.isPending ? (
        <Skeleton h={320} />
      ) : billing.isError ? (
        <Text c="red">{t('payments:billing.loadFailed')}</Text>
      ) : (
        <Tabs defaultValue="address">
          <Tabs.List mb="md">
            <Tabs.Tab value="address" leftSection={<IconMapPin size={16} />}>
              {t('pages.billing.addressTab')}
            </Tabs.Tab>
            <Tabs.Tab value="bank" leftSection={<IconBuildingBank size={16} />} data-testid="billing-bank-tab">
              {t('pages.billing.bankTab')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="address">
            <AddressForm billing={billing.data} />
          </Tabs.Panel>
          <Tabs.Panel value="bank">
            <BankForm billing={billing.data} />
          </Tabs.Panel>
        </Tabs>
      )}
    </>
  );
}
