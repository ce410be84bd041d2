import { Alert, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { localeOf } from '../../../i18n/languages';
import { formatDateTime } from '../../../i18n/dates';
import { paymentMethodsQueryOptions } from '../queries';

function Flag({ on, yes, no }: { on: boolean; yes: string; no: string }): ReactNode {
  return (
    <Badge color={on ? 'green' : 'gray'} variant="light">
      {on ? yes : no}
    </Badge>
  );
}

/** Which payment providers are enabled and configured; Stripe shows its keys and webhook. */
export function PaymentMethodsPage(): ReactNode {
  const { t, i18n } = useTranslation('payments');
  const methods = useQuery(paymentMethodsQueryOptions());
  return (
    <>
      <PageHeader
        title={t('common:nav.paymentMethods')}
        description={t('common:pages.paymentMethods.intro')}
        actions={
          <Button component={Link} to="/payments/orders" variant="light" leftSection={<IconReceipt size={16} />}>
            {t('orders.title')}
          </Button>
        }
      />
      {methods.isPending ? (
        <Skeleton h={160} />
      ) : methods.isError ? (
        <Text c="red">{t('methods.loadFailed')}</Text>
      ) : methods.data.length === 0 ? (
        <EmptyState title={t('common:pages.paymentMethods.emptyTitle')} description={t('common:pages.paymentMethods.emptyText')} />
      ) : (
        <Stack>
          {methods.data.some((method) => method.enabled) ? null : (
            <Alert color="yellow" title={t('methods.offTitle')} data-testid="payments-off">
              {t('methods.offText', {
                stripeKey: 'ENCORE_STRIPE_SECRET_KEY',
                stripeWebhook: 'ENCORE_STRIPE_WEBHOOK_SECRET',
                webhookUrl: `${window.location.origin}/api/v1/payments/stripe/webhook`,
                testSetting: 'ENCORE_PAYMENTS=test',
              })}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="payment-methods">
            {methods.data.map((method) => (
              <Card key={method.id} withBorder>
                <Stack gap="xs">
                  <Text fw={700}>{method.name}</Text>
                  <Group gap="xs">
                    <Flag on={method.enabled} yes={t('methods.enabled')} no={t('methods.disabled')} />
                    <Flag on={method.configured} yes={t('methods.configured')} no={t('methods.notConfigured')} />
                  </Group>
                  {method.id === 'stripe' ? (
                    <>
                      <Group gap="xs">
                        <Text size="sm">{t('methods.keys')}</Text>
                        {method.keysValid === null ? (
                          <Badge color="gray" variant="light">{t('methods.unknown')}</Badge>
                        ) : (
                          <Flag on={method.keysValid} yes={t('methods.keysValid')} no={t('methods.keysInvalid')} />
                        )}
                      </Group>
                      <Text size="sm" c="dimmed">
                        {method.lastWebhookAt
                          ? t('methods.lastWebhook', { date: formatDateTime(method.lastWebhookAt, localeOf(i18n.language)) })
                          : t('methods.noWebhook')}
                      </Text>
                    </>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('methods.testText')}
                    </Text>
                  )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
