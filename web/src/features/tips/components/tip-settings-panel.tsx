import { Alert, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../../../components/money-input';
import { localeOf } from '../../../i18n/languages';
import { localAmountText, parseAmount } from '../../../i18n/numbers';
import { errorText } from '../../../lib/errors';
import { currencyDigits, formatPrice } from '../../cart/model';
import { setTipSettings } from '../api';
import type { TipOptions } from '../model';
import { tipKeys, tipOptionsQueryOptions } from '../queries';

/** The presets as typed: amounts in major units (any digits), separated by spaces, a
 * comma and a space, a semicolon or the Persian comma (a comma inside an amount is its
 * decimal separator, as `parseAmount` reads it); null when one is not a number. */
export function parsePresets(text: string, digits: number): number[] | null {
  const parts = text.split(/,\s+|[\s;\u060C]+/).filter((part) => part !== '');
  const amounts = parts.map((part) => parseAmount(part, digits));
  return amounts.every((amount): amount is number => amount !== null) ? amounts : null;
}

function TipsForm({ eventId, options }: { eventId: string; options: TipOptions }): ReactNode {
  const { t, i18n } = useTranslation('tips');
  const locale = localeOf(i18n.language);
  const client = useQueryClient();
  const digits = currencyDigits(options.currency);
  const [enabled, setEnabled] = useState(options.enabled);
  // Amounts in the reader's digits, as every other number on a Persian page; a Persian
  // list takes the Persian comma (both read back by `parsePresets`).
  const presetsText = (amounts: number[]): string => amounts.map((p) => localAmountText(p, digits, locale)).join(locale.startsWith('fa') ? '\u060C ' : ', ');
  const [presets, setPresets] = useState(presetsText(options.presets));
  const [minimum, setMinimum] = useState(localAmountText(options.minimum, digits, locale));
  const save = useMutation({
    mutationFn: (settings: { enabled: boolean; presets: number[]; minimum: number }) => setTipSettings(eventId, settings),
    onSuccess: (saved) => {
      client.setQueryData(tipKeys.options(eventId), saved);
      setPresets(presetsText(saved.presets));
    },
  });
  const parsedPresets = parsePresets(presets, digits);
  const parsedMinimum = parseAmount(minimum, digits);
  const invalid = parsedPresets === null || parsedMinimum === null;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (parsedPresets === null || parsedMinimum === null) return;
        save.mutate({ enabled, presets: parsedPresets, minimum: parsedMinimum });
      }}
      data-testid="tips-settings"
    >
      <Stack gap="sm">
        <Switch checked={enabled} onChange={(event) => { setEnabled(event.currentTarget.checked); }} label={t('settings.enabled')} data-testid="tips-enabled" />
        <TextInput
          label={t('settings.presets', { currency: options.currency })}
          description={t('settings.presetsHint', { maximum: formatPrice(options.maximum, options.currency, locale) })}
          value={presets}
          onChange={(event) => { setPresets(event.currentTarget.value); }}
          error={parsedPresets === null ? t('form.notANumber') : undefined}
          disabled={!enabled}
          // A list of amounts reads left to right, in a Persian page too.
          dir="ltr"
          data-testid="tips-presets"
        />
        <MoneyInput
          label={t('settings.minimum', { currency: options.currency })}
          value={minimum}
          onChange={setMinimum}
          error={parsedMinimum === null ? t('form.notANumber') : undefined}
          disabled={!enabled}
          data-testid="tips-minimum"
        />
        {save.isError ? (
          <Alert color="red" data-testid="tips-settings-error">
            {errorText(save.error, t)}
          </Alert>
        ) : null}
        {save.isSuccess ? (
          <Text size="sm" c="teal" data-testid="tips-settings-saved">
            {t('settings.saved')}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" h={44} loading={save.isPending} disabled={invalid} data-testid="tips-save">
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A concert's tip settings for its managers: on or off, the presets offered and the smallest tip. */
export function TipSettingsPanel({ eventId }: { eventId: string }): ReactNode {
  const { t } = useTranslation('tips');
  const options = useQuery(tipOptionsQueryOptions(eventId));
  if (options.isError) return <Text c="red">{errorText(options.error, t)}</Text>;
  if (!options.data) return null;
  return <TipsForm eventId={eventId} options={options.data} />;
}
