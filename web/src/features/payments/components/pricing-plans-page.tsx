import { Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { MoneyInput } from '../../../components/money-input';
import { PageHeader } from '../../../components/page-header';
import { amountText, parseAmount } from '../../../i18n/numbers';
import { meQueryOptions } from '../../auth/queries';
import { currencyDigits } from '../../cart/model';
import { CURRENCIES } from '../../events/components/event-form-modal';
import type { PricingPlan } from '../model';
import { useRetirePlan, useSavePlan } from '../mutations';
import type { PlanValues } from '../mutations';
import { plansQueryOptions } from '../queries';
import { PassBuyButton, PlanSummary } from './pass-offers';
import { isStaff } from '../../../lib/roles';
import { FormActions } from '../../../components/form-actions';

function PlanFormModal({ plan, onClose }: { plan: PricingPlan | null; onClose: () => void }): ReactNode {
  const { t } = useTranslation('payments');
  const [error, setError] = useState<string | null>(null);
  const form = useForm<PlanValues>({
    initialValues: plan
      ? { name: plan.name, description: plan.description, price: amountText(plan.price, currencyDigits(plan.currency)), currency: plan.currency, days: plan.days }
      : { name: '', description: '', price: '', currency: 'EUR', days: 30 },
    validate: {
      price: (v, values) => (parseAmount(v, currencyDigits(values.currency)) === null ? t('plans.priceInvalid') : null),
    },
  });
  const save = useSavePlan(plan, onClose, setError);
  return (
    <Modal opened onClose={onClose} title={plan ? t('plans.editTitle') : t('plans.createTitle')}>
      <form onSubmit={form.onSubmit((values) => { setError(null); save.mutate(values); })}>
        <Stack>
          {error ? <Text c="red">{error}</Text> : null}
          <TextInput label={t('plans.name')} withAsterisk name="name" {...form.getInputProps('name')} />
          <Textarea label={t('plans.description')} autosize minRows={2} {...form.getInputProps('description')} />
          <Group grow>
            <MoneyInput label={t('plans.price')} withAsterisk name="price" {...form.getInputProps('price')} value={form.values.price} />
            <Select label={t('plans.currency')} withAsterisk data={CURRENCIES} allowDeselect={false} comboboxProps={{ withinPortal: true }} {...form.getInputProps('currency')} />
            <NumberInput label={t('plans.validity')} withAsterisk min={1} allowDecimal={false} {...form.getInputProps('days')} />
          </Group>
          <FormActions
            cancelLabel={t('plans.cancel')}
            onCancel={onClose}
            submitLabel={t('plans.save')}
            saving={save.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** All-access passes: staff create, edit and retire them; anyone may add one to the cart. */
export function PricingPlansPage(): ReactNode {
  const { t } = useTranslation('payments');
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const staff = isStaff(me.role);
  const plans = useQuery(plansQueryOptions());
  const [editing, setEditing] = useState<PricingPlan | 'new' | null>(null);
  const retire = useRetirePlan();
  return (
    <>
      <PageHeader
        title={t('common:nav.pricingPlans')}
        description={t('common:pages.pricingPlans.intro')}
        actions={
          staff ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => { setEditing('new'); }}>
              {t('plans.create')}
            </Button>
          ) : null
        }
      />
      {plans.isPending ? (
        <Skeleton h={160} />
      ) : plans.isError ? (
        <Text c="red">{t('plans.loadFailed')}</Text>
      ) : plans.data.length === 0 ? (
        <EmptyState title={t('common:pages.pricingPlans.emptyTitle')} description={t('common:pages.pricingPlans.emptyText')} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="pricing-plans">
          {plans.data.map((plan) => (
            <Card key={plan.id} withBorder>
              <Stack justify="space-between" h="100%">
                <PlanSummary plan={plan} />
                <Group gap="xs">
                  {plan.active ? <PassBuyButton plan={plan} /> : null}
                  {staff ? (
                    <Button variant="default" size="sm" onClick={() => { setEditing(plan); }}>
                      {t('plans.edit')}
                    </Button>
                  ) : null}
                  {staff && plan.active ? (
                    <Button variant="subtle" color="red" size="sm" loading={retire.isPending && retire.variables.id === plan.id} onClick={() => { retire.mutate(plan); }}>
                      {t('plans.retire')}
                    </Button>
                  ) : null}
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {editing !== null ? <PlanFormModal plan={editing === 'new' ? null : editing} onClose={() => { setEditing(null); }} /> : null}
    </>
  );
}
