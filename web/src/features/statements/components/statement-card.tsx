import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import type { Statement } from '../api';
import { formatPercent, statementLines } from '../model';
import type { Period } from '../model';
import { PayoutForm } from './payout-form';

/** One line of money: its name at the start, the amount at the end (never wrapped). */
export function StatementAmount({ label, amount, currency, strong = false, testId }: { label: string; amount: number; currency: string; strong?: boolean; testId: string }): ReactNode {
  const { i18n } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" data-testid={`${testId}-line`}>
      <Text size="sm" fw={strong ? 700 : 400} style={{ minWidth: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 400} style={{ whiteSpace: 'nowrap', flexShrink: 0 }} data-testid={testId}>
        {formatPrice(amount, currency, localeOf(i18n.language))}
      </Text>
    </Group>
  );
}

/** Where staff record payouts from (given to staff only). */
interface PayoutsAt {
  projectId: string;
  period: Period;
}

/** A project's statement in one currency: what came in, what went out, the net due (bold);
 * once paid out against, what was and what is still owed. Staff (`payouts`) record a payout
 * against it while something is owed. */
export function StatementCard({ statement, payouts }: { statement: Statement; payouts?: PayoutsAt }): ReactNode {
  const { t, i18n } = useTranslation('statements');
  const percent = formatPercent(statement.platformFeePercent, localeOf(i18n.language));
  return (
    <Card withBorder padding="lg" data-testid="statement-card" data-currency={statement.currency}>
      <Title order={3} size="h4" mb="sm">
        {t('card.title', { currency: statement.currency })}
      </Title>
      <Stack gap={8}>
        {statementLines(statement).map((line) => (
          <Fragment key={line.key}>
            {line.total ? <Divider /> : null}
            <StatementAmount
              label={line.key === 'platformFee' ? t('lines.platformFee', { percent }) : t(`lines.${line.key}`)}
              amount={line.amount}
              currency={statement.currency}
              strong={line.total === true}
              testId={`statement-${line.key}`}
            />
          </Fragment>
        ))}
      </Stack>
      {payouts ? <PayoutForm projectId={payouts.projectId} period={payouts.period} statement={statement} /> : null}
    </Card>
  );
}
