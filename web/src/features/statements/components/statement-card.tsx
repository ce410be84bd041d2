import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import type { Statement } from '../api';
import { formatPercent, statementLines } from '../model';

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

/** A project's statement in one currency: what came in, what went out, the net due (bold). */
export function StatementCard({ statement }: { statement: Statement }): ReactNode {
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
    </Card>
  );
}
