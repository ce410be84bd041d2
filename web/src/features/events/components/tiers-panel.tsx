import { Alert, Badge, Card, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ManagedList } from '../../../components/managed-list';
import { MoneyInput } from '../../../components/money-input';
import { localAmountText, parseAmount } from '../../../i18n/numbers';
import { FormActions } from '../../../components/form-actions';
import { errorText } from '../../../lib/errors';
import { currencyDigits, formatPrice } from '../../cart/model';
import type { ManagedEvent, ManagedTier, NewTierInput, TierChanges } from '../model';
import { MAX_TIERS, TIER_DESCRIPTION_MAX, TIER_NAME_MAX, isoToLocalInput, localInputToIso } from '../model';
import { useTierActions } from '../mutations';
import { tiersQueryOptions } from '../queries';
import { formatWhen, useLocale } from './event-parts';

/** The concert a tier belongs to, as far as its editor needs it. */
type TierConcert = Pick<ManagedEvent, 'id' | 'currency' | 'capacity'>;

interface TierValues {
  name: string;
  description: string;
  /** Major units as typed (any digits; see `MoneyInput`). */
  price: string;
  /** Pay what you want: the buyer names the amount, at least `minimum`. */
  pwyw: boolean;
  minimum: string;
  capacity: number | string;
  saleOpensAt: string;
  saleClosesAt: string;
  hidden: boolean;
  isDefault: boolean;
}

/** The sale window's two ends, each a local date and time. */
const SALE_WINDOW = [
  { field: 'saleOpensAt', label: 'manage.tiers.opensAt', testId: 'tier-opens' },
  { field: 'saleClosesAt', label: 'manage.tiers.closesAt', testId: 'tier-closes' },
] as const;

/** What the tier form sends: a new tier's fields, or a tier's changes (`null` clears its
 * capacity and its window; the default is only ever moved to a tier, never taken off one). */
export function tierInput(values: TierValues, currency: string): NewTierInput {
  const optional = (value: number | string): number | null => (value === '' ? null : Number(value));
  const digits = currencyDigits(currency);
  return {
    name: values.name.trim(),
    description: values.description,
    price: parseAmount(values.price, digits) ?? 0,
    minimumPrice: values.pwyw ? (parseAmount(values.minimum, digits) ?? 0) : null,
    capacity: optional(values.capacity),
    saleOpensAt: values.saleOpensAt ? localInputToIso(values.saleOpensAt) : null,
    saleClosesAt: values.saleClosesAt ? localInputToIso(values.saleClosesAt) : null,
    hidden: values.isDefault ? false : values.hidden,
    isDefault: values.isDefault,
  };
}

/** A form's starting values; amounts in the reader's digits (`locale`), as they type them. */
function initialValues(tier: ManagedTier | null, locale: string): TierValues {
  if (!tier) return { name: '', description: '', price: '', pwyw: false, minimum: '', capacity: '', saleOpensAt: '', saleClosesAt: '', hidden: false, isDefault: false };
  return {
    name: tier.name,
    description: tier.description,
    price: localAmountText(tier.price, currencyDigits(tier.currency), locale),
    pwyw: tier.minimumPrice !== null,
    minimum: tier.minimumPrice === null ? '' : localAmountText(tier.minimumPrice, currencyDigits(tier.currency), locale),
    capacity: tier.capacity ?? '',
    saleOpensAt: tier.saleOpensAt ? isoToLocalInput(tier.saleOpensAt) : '',
    saleClosesAt: tier.saleClosesAt ? isoToLocalInput(tier.saleClosesAt) : '',
    hidden: tier.hidden,
    isDefault: tier.isDefault,
  };
}

/** Add or change one tier: its name, description, price in the concert's currency (the
 * concert form's money input), its own seats, its sale window (local time, as the concert's
 * start), hidden, default. The server's refusal shows above the buttons, what was typed kept. */
function TierForm({
  concert,
  tier,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  concert: TierConcert;
  tier: ManagedTier | null;
  pending: boolean;
  error: unknown;
  onSubmit: (input: NewTierInput) => void;
  onCancel: () => void;
}): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  const amount = (typed: string): number | null => parseAmount(typed, currencyDigits(concert.currency));
  const form = useForm<TierValues>({
    initialValues: initialValues(tier, locale),
    validate: {
      name: (v) => (v.trim() ? null : t('form.required')),
      price: (v) => (amount(v) === null ? t('form.required') : null),
      minimum: (v, values) => {
        if (!values.pwyw || v.trim() === '') return null;
        const minimum = amount(v);
        if (minimum === null) return t('form.required');
        const price = amount(values.price);
        return price !== null && minimum > price ? t('manage.tiers.minimumAbove') : null;
      },
      capacity: (v) =>
        v !== '' && concert.capacity !== null && Number(v) > concert.capacity
          ? t('manage.tiers.capacityAbove', { seats: concert.capacity })
          : null,
      saleClosesAt: (v, values) =>
        v && values.saleOpensAt && Date.parse(localInputToIso(v)) <= Date.parse(localInputToIso(values.saleOpensAt)) ? t('manage.tiers.windowBackwards') : null,
    },
  });
  // Its price is frozen once one of its tickets is sold or being paid for.
  const priceFrozen = (tier?.seatsTaken ?? 0) > 0;
  // The default tier stays the default until another is made it; it is never hidden.
  const wasDefault = tier?.isDefault ?? false;
  return (
    <Card withBorder padding="sm" data-testid="tier-form">
      <form onSubmit={form.onSubmit((values) => { onSubmit(tierInput(values, concert.currency)); })} noValidate>
        <Stack gap="sm">
          <TextInput label={t('manage.tiers.name')} withAsterisk name="name" maxLength={TIER_NAME_MAX} dir="auto" {...form.getInputProps('name')} data-testid="tier-name" />
          <Textarea
            label={t('form.description')}
            name="description"
            autosize
            minRows={2}
            maxLength={TIER_DESCRIPTION_MAX}
            dir="auto"
            {...form.getInputProps('description')}
            data-testid="tier-description"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
            <MoneyInput
              label={form.values.pwyw ? t('manage.tiers.suggested') : t('form.price')}
              description={priceFrozen ? t('manage.tiers.priceFrozen') : t('manage.tiers.priceHint', { currency: concert.currency })}
              withAsterisk
              name="price"
              disabled={priceFrozen}
              {...form.getInputProps('price')}
              value={form.values.price}
              data-testid="tier-price"
            />
            <NumberInput
              label={t('form.capacity')}
              description={t('manage.tiers.capacityHint')}
              name="capacity"
              min={1}
              allowDecimal={false}
              {...form.getInputProps('capacity')}
              data-testid="tier-capacity"
            />
            {SALE_WINDOW.map(({ field, label, testId }) => (
              <TextInput
                key={field}
                type="datetime-local"
                label={t(label)}
                description={t('manage.tiers.windowHint')}
                name={field}
                {...form.getInputProps(field)}
                data-testid={testId}
              />
            ))}
          </SimpleGrid>
          <Switch
            label={t('manage.tiers.pwyw')}
            description={t('manage.tiers.pwywHint')}
            {...form.getInputProps('pwyw', { type: 'checkbox' })}
            data-testid="tier-pwyw"
          />
          {form.values.pwyw ? (
            <MoneyInput
              label={t('manage.tiers.minimum')}
              description={t('manage.tiers.minimumHint', { currency: concert.currency })}
              name="minimum"
              {...form.getInputProps('minimum')}
              value={form.values.minimum}
              data-testid="tier-minimum"
            />
          ) : null}
          <Switch
            label={t('manage.tiers.hidden')}
            description={t('manage.tiers.hiddenHint')}
            disabled={form.values.isDefault}
            {...form.getInputProps('hidden', { type: 'checkbox' })}
            checked={form.values.hidden && !form.values.isDefault}
            data-testid="tier-hidden"
          />
          <Switch
            label={t('manage.tiers.default')}
            description={wasDefault ? t('manage.tiers.defaultStays') : t('manage.tiers.defaultHint')}
            disabled={wasDefault}
            {...form.getInputProps('isDefault', { type: 'checkbox' })}
            data-testid="tier-default"
          />
          {error ? (
            <Alert color="red" data-testid="tier-form-error">
              {errorText(error, t)}
            </Alert>
          ) : null}
          <FormActions cancelLabel={t('form.cancel')} onCancel={onCancel} submitLabel={t('form.save')} saving={pending} submitTestId="tier-save" />
        </Stack>
      </form>
    </Card>
  );
}

/** What a tier's seats and sale window are, in the reader's digits and dates. */
function TierFacts({ tier }: { tier: ManagedTier }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  // Numbers put into a text pass the one number formatter (the reader's digits).
  const seats =
    tier.capacity === null ? t('manage.tiers.seatsOpen', { taken: tier.seatsTaken }) : t('manage.tiers.seats', { taken: tier.seatsTaken, capacity: tier.capacity });
  const opens = tier.saleOpensAt ? formatWhen(tier.saleOpensAt, locale) : null;
  const closes = tier.saleClosesAt ? formatWhen(tier.saleClosesAt, locale) : null;
  const window =
    opens && closes
      ? t('manage.tiers.window.both', { opens, closes })
      : opens
        ? t('manage.tiers.window.opens', { opens })
        : closes
          ? t('manage.tiers.window.closes', { closes })
          : t('manage.tiers.window.concert');
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="tier-seats">
        {seats}
      </Text>
      <Text size="sm" c="dimmed" data-testid="tier-window">
        {window}
      </Text>
    </>
  );
}

/**
 * A concert's ticket tiers for its managers (staff, its project's members): every tier, hidden
 * ones and the default marked, with its price, seats and sale window; add one, change one,
 * delete one after confirming. A change refreshes the concert, its tiers and the carts.
 */
export function TiersPanel({ event }: { event: TierConcert }): ReactNode {
  const { t } = useTranslation('events');
  const locale = useLocale();
  const tiers = useQuery(tiersQueryOptions(event.id));
  const { add, edit, remove } = useTierActions(event.id);
  const count = tiers.data?.length ?? 0;
  return (
    <ManagedList
      ids={{ panel: 'tiers-panel', add: 'tier-add', list: 'tiers', row: 'tier-row', edit: 'tier-edit', remove: 'tier-delete', confirm: 'tier-delete-confirm' }}
      texts={{
        title: t('manage.tiers.title'),
        subtitle: tiers.data ? (
          <Text size="xs" c="dimmed" data-testid="tiers-count">
            {t('manage.tiers.count', { shown: count, max: MAX_TIERS })}
          </Text>
        ) : null,
        hint: t('manage.tiers.hint'),
        add: t('manage.tiers.add'),
        cancel: t('form.cancel'),
        deleteTitle: t('manage.tiers.deleteTitle'),
        deleteConfirm: t('manage.delete'),
      }}
      items={tiers}
      canAdd={tiers.data !== undefined && count < MAX_TIERS}
      actions={{ add, edit, remove }}
      form={(tier, close) =>
        tier === null ? (
          <TierForm
            concert={event}
            tier={null}
            pending={add.isPending}
            error={add.error}
            onSubmit={(input) => {
              add.mutate(input, { onSuccess: close });
            }}
            onCancel={close}
          />
        ) : (
          <TierForm
            concert={event}
            tier={tier}
            pending={edit.isPending}
            error={edit.error}
            onSubmit={(input) => {
              const changes: TierChanges = { ...input, isDefault: input.isDefault === true ? true : undefined };
              edit.mutate({ tierId: tier.id, changes }, { onSuccess: close });
            }}
            onCancel={close}
          />
        )
      }
      rowData={(tier) => ({ 'data-tier': tier.id, 'data-default': tier.isDefault ? 'true' : undefined, 'data-hidden': tier.hidden ? 'true' : undefined })}
      row={(tier) => (
        <>
          <Group gap={6} wrap="wrap">
            <Text fw={600} dir="auto" style={{ overflowWrap: 'anywhere' }} data-testid="tier-row-name">
              {tier.name}
            </Text>
            {tier.isDefault ? (
              <Badge size="sm" variant="light" color="blue" data-testid="tier-default-badge">
                {t('manage.tiers.defaultBadge')}
              </Badge>
            ) : null}
            {tier.minimumPrice !== null ? (
              <Badge size="sm" variant="light" color="grape" data-testid="tier-pwyw-badge" style={{ textTransform: 'none' }}>
                {t('manage.tiers.pwywBadge', { minimum: formatPrice(tier.minimumPrice, tier.currency, locale) })}
              </Badge>
            ) : null}
            {tier.hidden ? (
              <Badge size="sm" variant="light" color="gray" data-testid="tier-hidden-badge">
                {t('manage.tiers.hiddenBadge')}
              </Badge>
            ) : null}
          </Group>
          <Text fw={700} data-testid="tier-row-price">
            {formatPrice(tier.price, tier.currency, locale)}
          </Text>
          {tier.description ? (
            <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {tier.description}
            </Text>
          ) : null}
          <TierFacts tier={tier} />
        </>
      )}
      editLabel={(tier) => t('manage.tiers.edit', { name: tier.name })}
      // The default tier stays: another is made the default first.
      deleteLabel={(tier) => (tier.isDefault ? null : t('manage.tiers.delete', { name: tier.name }))}
      deleteText={(tier) => <Text dir="auto">{t('manage.tiers.deleteText', { name: tier?.name ?? '' })}</Text>}
    />
  );
}
