import { Alert, Button, Chip, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../../../components/money-input';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { currencyDigits, formatPrice } from '../../cart/model';
import { goToPayment, paymentWindow } from '../../cart/checkout';
import { appPlayer } from '../../player/player';
import { startTip } from '../api';
import { parseAmount } from '../../../i18n/numbers';
import { amountProblem } from '../model';
import { tipOptionsQueryOptions } from '../queries';

/** "Tip the artist", for a holder on the stage: the presets or an amount of one's own (in
 * the concert's currency, Persian digits read), an optional message, then the payment page
 * as a checkout's (a new window while the show plays here); paid, it sends the tipper back
 * to the stage. The server's refusal shows in the form, in the reader's language. */
export function TipButton({ eventId }: { eventId: string }): ReactNode {
  const { t, i18n } = useTranslation('tips');
  const locale = localeOf(i18n.language);
  const [opened, setOpened] = useState(false);
  const [preset, setPreset] = useState<number | null>(null);
  const [own, setOwn] = useState('');
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  // Read before the button shows: a concert whose artist turned tips off offers none.
  const options = useQuery(tipOptionsQueryOptions(eventId));
  const tip = useMutation({
    mutationFn: ({ amount, target }: { amount: number; target: Window | null }) =>
      startTip(eventId, amount, message.trim()).then((url) => {
        goToPayment(url, target);
      }),
    onError: (_error, { target }) => {
      target?.close();
    },
  });
  const data = options.data;
  const digits = data ? currencyDigits(data.currency) : 2;
  const amount = preset ?? (own.trim() === '' ? null : parseAmount(own, digits));
  const problem = data ? amountProblem(amount, data) : null;
  const money = (minor: number): string => (data ? formatPrice(minor, data.currency, locale) : '');

  if (data?.enabled === false) return null;
  return (
    <>
      <Button variant="light" color="grape" leftSection={<IconHeartHandshake size={16} />} onClick={() => { setOpened(true); }} data-testid="tip-open">
        {t('button')}
      </Button>
      <Modal opened={opened} onClose={() => { setOpened(false); }} title={t('title')} data-testid="tip-modal">
        {options.isError ? (
          <Text c="red">{errorText(options.error, t)}</Text>
        ) : !data ? null : (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setTouched(true);
              if (amount === null || problem) return;
              tip.mutate({ amount, target: paymentWindow(appPlayer().getSnapshot().concert !== null) });
            }}
          >
            <Stack gap="sm">
              {tip.isError ? (
                <Alert color="red" data-testid="tip-error">
                  {errorText(tip.error, t)}
                </Alert>
              ) : null}
              <Chip.Group
                value={preset === null ? '' : String(preset)}
                onChange={(value) => {
                  setPreset(typeof value === 'string' && value !== '' ? Number(value) : null);
                  setOwn('');
                }}
              >
                <Group gap="xs" data-testid="tip-presets">
                  {data.presets.map((p) => (
                    <Chip key={p} value={String(p)} data-testid="tip-preset" data-amount={p}>
                      {money(p)}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
              <MoneyInput
                label={t('form.own', { currency: data.currency })}
                description={t('form.limits', { minimum: money(data.minimum), maximum: money(data.maximum) })}
                value={own}
                onChange={(text) => {
                  setOwn(text);
                  setPreset(null);
                }}
                error={touched && problem ? t(problem, { minimum: money(data.minimum), maximum: money(data.maximum) }) : undefined}
                data-testid="tip-amount"
              />
              <TextInput
                label={t('form.message')}
                description={t('form.messageHint', { max: data.maxMessageChars })}
                maxLength={data.maxMessageChars}
                dir="auto"
                value={message}
                onChange={(event) => {
                  setMessage(event.currentTarget.value);
                }}
                data-testid="tip-message"
              />
              <Button type="submit" loading={tip.isPending} data-testid="tip-pay">
                {amount !== null && !problem ? t('form.pay', { amount: money(amount) }) : t('form.payPlain')}
              </Button>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
