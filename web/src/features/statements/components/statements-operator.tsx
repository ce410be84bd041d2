import { Alert, Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors';
import { operatorLines } from '../model';
import type { Period } from '../model';
import { periodStatementsQueryOptions } from '../queries';
import { StatementAmount } from './statement-card';

/** Staff: what stays with the operator in the month, per currency (passes until they are
 * shared, what nobody listened to, and every project's platform fee). */
export function StatementsOperator({ period }: { period: Period }): ReactNode {
  const { t } = useTranslation('statements');
  const all = useQuery(periodStatementsQueryOptions(period));
  return (
    <Stack gap="sm" data-testid="statements-operator">
      <div>
        <Title order={3} size="h4">
          {t('operator.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('operator.intro')}
        </Text>
      </div>
      {all.isPending ? <Skeleton h={160} /> : null}
      {all.isError ? <Alert color="red">{errorText(all.error, t)}</Alert> : null}
      {all.data && all.data.operator.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="operator-empty">
          {t('operator.empty')}
        </Text>
      ) : null}
      {all.data && all.data.operator.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {all.data.operator.map((line) => (
            <Card key={line.currency} withBorder padding="lg" data-testid="operator-card" data-currency={line.currency}>
              <Title order={4} size="h5" mb="sm">
                {t('operator.card', { currency: line.currency })}
              </Title>
              <Stack gap={8}>
                {operatorLines(line).map(({ key, amount }) => (
                  <StatementAmount key={key} label={t(`operator.${key}`)} amount={amount} currency={line.currency} testId={`operator-${key}`} />
                ))}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
