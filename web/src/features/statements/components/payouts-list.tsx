import { Card, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import type { Payout } from '../api';
import { PAYOUT_DATE_FORMAT, isolate } from '../model';

/** The month's payouts of the project, oldest first (as the server lists them): the day it
 * was recorded, the amount, the transfer's reference as staff wrote it. Nothing when none. */
export function PayoutsList({ payouts, month }: { payouts: Payout[]; month: string }): ReactNode {
  const { t, i18n } = useTranslation('statements');
  const locale = localeOf(i18n.language);
  if (payouts.length === 0) return null;
  return (
    // As wide as a statement card above it: the date and its amount stay within a glance.
    <SimpleGrid cols={{ base: 1, md: 2 }} mt="md">
      <Card withBorder padding="lg" data-testid="payouts">
        <Title order={3} size="h4" mb="sm">
          {t('payouts.title', { month })}
        </Title>
        <Stack gap={8}>
          {payouts.map((payout, index) => (
            <Fragment key={payout.id}>
              {index > 0 ? <Divider /> : null}
              <Group justify="space-between" wrap="nowrap" gap="md" align="flex-start" data-testid="payout" data-currency={payout.currency}>
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" data-testid="payout-date">
                    {formatDate(payout.createdAt, locale, PAYOUT_DATE_FORMAT)}
                  </Text>
                  {payout.reference ? (
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="payout-reference-text">
                      {t('payouts.reference', { reference: isolate(payout.reference) })}
                    </Text>
                  ) : null}
                </div>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap', flexShrink: 0 }} data-testid="payout-amount-text">
                  {formatPrice(payout.amount, payout.currency, locale)}
                </Text>
              </Group>
            </Fragment>
          ))}
        </Stack>
      </Card>
    </SimpleGrid>
  );
}
