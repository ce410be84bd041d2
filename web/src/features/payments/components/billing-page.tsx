import { Alert, Button, Group, SimpleGrid, Skeleton, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingBank, IconMapPin } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../app/components/page-header';
import type { BankDetails, Billing, BillingAddress } from '../api';
import { useSaveBilling } from '../mutations';
import { billingQueryOptions } from '../queries';

function AddressForm({ billing }: { billing: Billing }): ReactNode {
  const { t } = useTranslation('payments');
  const form = useForm<BillingAddress>({ initialValues: billing.address });
  const { mutation, error } = useSaveBilling((saved) => { form.setValues(saved.address); form.resetDirty(saved.address); });
  return (
    <form onSubmit={form.onSubmit((address) => { mutation.mutate({ address, bank: billing.bank }); })} data-testid="billing-address-form">
      <Stack maw={720}>
        {error ? <Alert color="red" data-testid="billing-address-error">{error}</Alert> : null}
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
        <Group justify="flex-end">
          <Button type="submit" loading={mutation.isPending}>
            {t('billing.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function BankForm({ billing }: { billing: Billing }): ReactNode {
  const { t } = useTranslation('payments');
  const form = useForm<BankDetails>({ initialValues: billing.bank });
  const { mutation, error } = useSaveBilling((saved) => { form.setValues(saved.bank); form.resetDirty(saved.bank); });
  return (
    // The account number comes back masked; sending the masked value unchanged keeps it.
    <form onSubmit={form.onSubmit((bank) => { mutation.mutate({ address: billing.address, bank }); })} data-testid="billing-bank-form">
      <Stack maw={720}>
        {error ? <Alert color="red" data-testid="billing-bank-error">{error}</Alert> : null}
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
        <Group justify="flex-end">
          <Button type="submit" loading={mutation.isPending}>
            {t('billing.save')}
          </Button>
        </Group>
      </Stack>
    </form>
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
