import { Alert, Badge, Card, Checkbox, Group, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/form-actions';
import { ManagedList } from '../../../components/managed-list';
import { MoneyInput } from '../../../components/money-input';
import { errorText } from '../../../lib/errors';
import { formatPrice } from '../../cart/model';
import { formatWhen, useLocale } from '../../events/components/event-parts';
import { tiersQueryOptions } from '../../events/queries';
import type { PromoScope } from '../api';
import type { PromoCode, PromoCodeInput, PromoValues } from '../model';
import { PROMO_KINDS, promoInput, promoProblems, promoValues } from '../model';
import { usePromoActions } from '../mutations';
import { promoCodesQueryOptions } from '../queries';

/** A concert a code may be for, as far as the panel needs it. */
export interface PromoConcert {
  id: string;
  title: string;
  currency: string;
}

/** The hidden tiers of a concert to pick from (a code unlocks some of them). */
function TierPicker({ concertId, value, onChange, error }: { concertId: string; value: string[]; onChange: (ids: string[]) => void; error?: string }): ReactNode {
  const { t } = useTranslation('promo');
  const tiers = useQuery(tiersQueryOptions(concertId));
  if (tiers.isPending) return <Skeleton h={40} />;
  const hidden = (tiers.data ?? []).filter((tier) => tier.hidden);
  return (
    <Checkbox.Group label={t('form.tiers')} description={hidden.length ? t('form.tiersHint') : t('form.noHiddenTiers')} value={value} onChange={onChange} error={error} withAsterisk data-testid="promo-tiers">
      <Stack gap={6} mt={6}>
        {hidden.map((tier) => (
          <Checkbox key={tier.id} value={tier.id} label={tier.name} data-testid="promo-tier" />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** Add or change one code: its text, what it does (a percentage, an amount in the concert's
 * currency through the money input, or hidden tiers unlocked), the concert it is for (a
 * project's codes), its limits and dates. The server's refusal shows above the buttons. */
function PromoForm({
  scope,
  concerts,
  code,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  scope: PromoScope;
  concerts: PromoConcert[];
  code: PromoCode | null;
  pending: boolean;
  error: unknown;
  onSubmit: (input: PromoCodeInput) => void;
  onCancel: () => void;
}): ReactNode {
  const { t } = useTranslation('promo');
  const [values, setValues] = useState<PromoValues>(promoValues(code));
  const [eventId, setEventId] = useState<string | null>(scope.kind === 'event' ? scope.id : (code?.eventId ?? null));
  const [tried, setTried] = useState(false);
  const concert = concerts.find((c) => c.id === eventId) ?? concerts[0];
  const currency = code?.currency ?? concert?.currency ?? 'EUR';
  const problems = promoProblems(values, currency);
  const unlockWithoutConcert = values.kind === 'unlock' && eventId === null;
  const shown = (field: keyof PromoValues): string | undefined => (tried && problems[field] ? t(problems[field]) : undefined);
  const set = <K extends keyof PromoValues>(field: K, value: PromoValues[K]): void => {
    setValues((before) => ({ ...before, [field]: value }));
  };
  return (
    <Card withBorder padding="sm" data-testid="promo-form">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (Object.keys(problems).length > 0 || unlockWithoutConcert) return;
          onSubmit(promoInput(values, currency, eventId));
        }}
      >
        <Stack gap="sm">
          <TextInput label={t('form.code')} description={t('form.codeHint')} withAsterisk dir="ltr" maxLength={40} value={values.code} onChange={(e) => { set('code', e.currentTarget.value); }} error={shown('code')} data-testid="promo-code" />
          <SegmentedControl
            fullWidth
            value={values.kind}
            onChange={(kind) => { set('kind', kind as PromoValues['kind']); }}
            data={PROMO_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
            data-testid="promo-kind"
          />
          {scope.kind === 'project' ? (
            <Select
              label={t('form.concert')}
              description={values.kind === 'unlock' ? t('form.concertForUnlock') : t('form.concertHint')}
              value={eventId ?? ''}
              onChange={(v) => { setEventId(v ? v : null); set('tierIds', []); }}
              data={[{ value: '', label: t('form.allConcerts') }, ...concerts.map((c) => ({ value: c.id, label: c.title }))]}
              allowDeselect={false}
              error={tried && unlockWithoutConcert ? t('form.concertForUnlock') : undefined}
              data-testid="promo-concert"
            />
          ) : null}
          {values.kind === 'percent' ? (
            <TextInput label={t('form.percent')} withAsterisk inputMode="numeric" dir="ltr" value={values.percent} onChange={(e) => { set('percent', e.currentTarget.value); }} error={shown('percent')} data-testid="promo-percent" />
          ) : values.kind === 'amount' ? (
            <MoneyInput label={t('form.amount', { currency })} withAsterisk value={values.amount} onChange={(v) => { set('amount', v); }} error={shown('amount')} data-testid="promo-amount" />
          ) : eventId ? (
            <TierPicker concertId={eventId} value={values.tierIds} onChange={(ids) => { set('tierIds', ids); }} error={shown('tierIds')} />
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
            <TextInput label={t('form.maxUses')} description={t('form.noLimit')} inputMode="numeric" dir="ltr" value={values.maxUses} onChange={(e) => { set('maxUses', e.currentTarget.value); }} error={shown('maxUses')} data-testid="promo-max-uses" />
            <TextInput label={t('form.maxPerAccount')} description={t('form.noLimit')} inputMode="numeric" dir="ltr" value={values.maxPerAccount} onChange={(e) => { set('maxPerAccount', e.currentTarget.value); }} error={shown('maxPerAccount')} data-testid="promo-max-per-account" />
            <TextInput type="datetime-local" label={t('form.validFrom')} description={t('form.validFromHint')} value={values.validFrom} onChange={(e) => { set('validFrom', e.currentTarget.value); }} data-testid="promo-valid-from" />
            <TextInput type="datetime-local" label={t('form.validUntil')} description={t('form.validUntilHint')} value={values.validUntil} onChange={(e) => { set('validUntil', e.currentTarget.value); }} error={shown('validUntil')} data-testid="promo-valid-until" />
          </SimpleGrid>
          {error ? (
            <Alert color="red" data-testid="promo-form-error">
              {errorText(error, t)}
            </Alert>
          ) : null}
          <FormActions cancelLabel={t('form.cancel')} onCancel={onCancel} submitLabel={t('form.save')} saving={pending} submitTestId="promo-save" />
        </Stack>
      </form>
    </Card>
  );
}

/** What a code does, its uses and its dates, in the reader's words and digits. */
function PromoFacts({ code, concerts, scope }: { code: PromoCode; concerts: PromoConcert[]; scope: PromoScope }): ReactNode {
  const { t } = useTranslation('promo');
  const locale = useLocale();
  const effect =
    code.kind === 'percent'
      ? t('effect.percent', { value: code.value })
      : code.kind === 'amount'
        ? t('effect.amount', { amount: formatPrice(code.value, code.currency ?? 'EUR', locale) })
        : t('effect.unlock', { count: code.tierIds.length });
  const uses =
    code.maxUses === null ? t('uses.open', { taken: code.usesTaken }) : t('uses.limited', { taken: code.usesTaken, max: code.maxUses, left: Math.max(0, code.maxUses - code.usesTaken) });
  const from = code.validFrom ? formatWhen(code.validFrom, locale) : null;
  const until = code.validUntil ? formatWhen(code.validUntil, locale) : null;
  const dates = from && until ? t('dates.both', { from, until }) : from ? t('dates.from', { from }) : until ? t('dates.until', { until }) : null;
  const concert = scope.kind === 'project' ? (code.eventId ? (concerts.find((c) => c.id === code.eventId)?.title ?? '') : t('form.allConcerts')) : null;
  return (
    <>
      <Text size="sm" fw={600} data-testid="promo-effect">
        {effect}
      </Text>
      {concert ? (
        <Text size="sm" c="dimmed" dir="auto">
          {concert}
        </Text>
      ) : null}
      <Text size="sm" c="dimmed" data-testid="promo-uses">
        {uses}
        {code.maxPerAccount === null ? '' : ` · ${t('uses.perAccount', { max: code.maxPerAccount })}`}
      </Text>
      {dates ? (
        <Text size="sm" c="dimmed">
          {dates}
        </Text>
      ) : null}
    </>
  );
}

/**
 * The promo codes of a concert or of a project, for its managers: each code with what it
 * does, its uses (and those left) and dates; add one (a percentage, an amount, or hidden
 * tiers unlocked), change one, delete one after confirming.
 */
export function PromoCodesPanel({ scope, concerts }: { scope: PromoScope; concerts: PromoConcert[] }): ReactNode {
  const { t } = useTranslation('promo');
  const codes = useQuery(promoCodesQueryOptions(scope));
  const { add, edit, remove } = usePromoActions(scope);
  return (
    <ManagedList
      ids={{ panel: 'promo-panel', add: 'promo-add', list: 'promo-codes', row: 'promo-row', edit: 'promo-edit', remove: 'promo-delete', confirm: 'promo-delete-confirm', none: 'promo-none' }}
      texts={{
        title: t('manage.title'),
        hint: scope.kind === 'event' ? t('manage.hintEvent') : t('manage.hintProject'),
        add: t('manage.add'),
        none: t('manage.none'),
        cancel: t('form.cancel'),
        deleteTitle: t('manage.deleteTitle'),
        deleteConfirm: t('manage.deleteConfirm'),
      }}
      items={codes}
      actions={{ add, edit, remove }}
      form={(code, close) =>
        code === null ? (
          <PromoForm scope={scope} concerts={concerts} code={null} pending={add.isPending} error={add.error} onSubmit={(input) => { add.mutate(input, { onSuccess: close }); }} onCancel={close} />
        ) : (
          <PromoForm scope={scope} concerts={concerts} code={code} pending={edit.isPending} error={edit.error} onSubmit={(input) => { edit.mutate({ codeId: code.id, input }, { onSuccess: close }); }} onCancel={close} />
        )
      }
      rowData={(code) => ({ 'data-code': code.code })}
      row={(code) => (
        <>
          <Group gap={6} wrap="wrap">
            <Text fw={700} dir="ltr" style={{ overflowWrap: 'anywhere' }} data-testid="promo-row-code">
              {code.code}
            </Text>
            <Badge size="sm" variant="light" color={code.kind === 'unlock' ? 'grape' : 'green'} style={{ textTransform: 'none' }}>
              {t(`kinds.${code.kind}`)}
            </Badge>
          </Group>
          <PromoFacts code={code} concerts={concerts} scope={scope} />
        </>
      )}
      editLabel={(code) => t('manage.edit', { code: code.code })}
      deleteLabel={(code) => t('manage.delete', { code: code.code })}
      deleteText={(code) => (
        <>
          <Text>{t('manage.deleteText', { code: code?.code ?? '' })}</Text>
          {remove.error ? <Text c="red" size="sm">{errorText(remove.error, t)}</Text> : null}
        </>
      )}
    />
  );
}
