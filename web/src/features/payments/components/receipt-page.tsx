import './receipt.css';
import { Badge, Button, Card, Divider, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title, useDirection } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { formatDateTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { ApiError } from '../../../lib/errors';
import { formatPrice, timesLabel } from '../../cart/model';
import { ORDER_STATUS_COLOR } from '../model';
import { receiptQueryOptions } from '../queries';

/** How the order was paid, in the reader's words. */
const PROVIDERS = ['test', 'stripe'] as const;

/** An order's receipt (the buyer's own, or any for staff), laid out to print alone. */
export function ReceiptPage(): ReactNode {
  const { t, i18n } = useTranslation('orders');
  const locale = localeOf(i18n.language);
  const { orderId = '' } = useParams();
  const receipt = useQuery(receiptQueryOptions(orderId));
  if (receipt.isPending) return <Skeleton h={360} />;
  if (receipt.isError) {
    // A checkout never paid has no receipt: the server says so in the reader's language.
    if (receipt.error instanceof ApiError && receipt.error.status === 409) {
      return (
        <Stack gap="md" maw={760} data-testid="receipt-unpaid">
          <Group>
            <Button component={Link} to="/my-orders" variant="subtle" leftSection={<BackArrow />}>
              {t('receipt.back')}
            </Button>
          </Group>
          <EmptyState title={t('receipt.unpaidTitle')} description={receipt.error.message} />
        </Stack>
      );
    }
    return <Text c="red">{t('receipt.loadFailed')}</Text>;
  }
  const { order, seller, refunds, refunded } = receipt.data;
  const money = (minor: number): string => formatPrice(minor, order.currency, locale);
  const when = (iso: string): string => formatDateTime(iso, locale, { dateStyle: 'long', timeStyle: 'short' });
  const provider = (PROVIDERS as readonly string[]).includes(order.provider) ? t(`receipt.providers.${order.provider}`) : order.provider;
  const sellerLines = [seller.company, seller.name, seller.address, seller.city, seller.country, seller.email].filter((line) => line.trim() !== '');
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between" data-print="hide">
        <Button component={Link} to="/my-orders" variant="subtle" leftSection={<BackArrow />}>
          {t('receipt.back')}
        </Button>
        <Button leftSection={<IconPrinter size={16} />} onClick={() => { window.print(); }} data-testid="receipt-print">
          {t('receipt.print')}
        </Button>
      </Group>
      <Card withBorder padding="xl" className="encore-receipt" data-testid="receipt">
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={2}>{t('receipt.title')}</Title>
              <Text size="sm" c="dimmed" data-testid="receipt-number">
                {/* The number is an id: read left to right in every language. */}
                <Trans t={t} i18nKey="receipt.number" values={{ id: order.id }} components={{ id: <span dir="ltr" style={{ display: 'inline-block' }} data-testid="receipt-id" /> }} />
              </Text>
            </div>
            <Badge size="lg" color={ORDER_STATUS_COLOR[order.status]} variant="light" data-testid="receipt-status">
              {t(`common:cart.status.${order.status}`)}
            </Badge>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <div>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                {t('receipt.seller')}
              </Text>
              {sellerLines.length === 0 ? <Text>{t('receipt.sellerUnset')}</Text> : sellerLines.map((line) => <Text key={line}>{line}</Text>)}
            </div>
            <div>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                {t('receipt.buyer')}
              </Text>
              {order.buyer.name ? <Text>{order.buyer.name}</Text> : null}
              <Text data-testid="receipt-buyer">{order.buyer.email}</Text>
            </div>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <div>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">{t('receipt.ordered')}</Text>
              <Text>{when(order.createdAt)}</Text>
            </div>
            <div>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">{t('receipt.paid')}</Text>
              <Text>{order.paidAt ? when(order.paidAt) : t('receipt.notPaid')}</Text>
            </div>
            <div>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">{t('receipt.method')}</Text>
              <Text>{provider}</Text>
            </div>
          </SimpleGrid>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('receipt.item')}</Table.Th>
                <Table.Th ta="end">{t('receipt.price')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {order.items.map((item) => (
                <Table.Tr key={`${item.itemKind}-${item.itemId}`}>
                  <Table.Td>
                    {item.title}
                    <Text size="xs" c="dimmed">
                      {t(`receipt.kinds.${item.itemKind}`)}
                      {item.tier ? ` · ${timesLabel(item.quantity, item.tier, locale)}` : null}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="end">{money(item.price)}</Table.Td>
                </Table.Tr>
              ))}
              {order.tip ? (
                <Table.Tr data-testid="receipt-tip">
                  <Table.Td dir="auto">{t('tipFor', { artist: order.tip.artistName, title: order.tip.title })}</Table.Td>
                  <Table.Td ta="end">{money(order.total)}</Table.Td>
                </Table.Tr>
              ) : null}
              {order.promoCode ? (
                <Table.Tr data-testid="receipt-promo">
                  <Table.Td>
                    {t('promo:receipt.code')} <span dir="ltr" data-testid="receipt-promo-code">{order.promoCode}</span>
                    {order.discount > 0 ? <Text size="xs" c="dimmed">{t('promo:receipt.included')}</Text> : null}
                  </Table.Td>
                  <Table.Td ta="end" data-testid="receipt-discount">{order.discount > 0 ? `−${money(order.discount)}` : '—'}</Table.Td>
                </Table.Tr>
              ) : null}
              <Table.Tr>
                <Table.Td fw={700}>{t('receipt.total')}</Table.Td>
                <Table.Td fw={700} ta="end" data-testid="receipt-total">{money(order.total)}</Table.Td>
              </Table.Tr>
              {refunded > 0 ? (
                <>
                  {refunds.map((refund) => (
                    <Table.Tr key={refund.createdAt}>
                      <Table.Td>
                        {t('receipt.refund', { date: when(refund.createdAt) })}
                        <Text size="xs" c="dimmed">{refund.reason}</Text>
                      </Table.Td>
                      <Table.Td ta="end">−{money(refund.amount)}</Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr>
                    <Table.Td fw={700}>{t('receipt.net')}</Table.Td>
                    <Table.Td fw={700} ta="end">{money(order.total - refunded)}</Table.Td>
                  </Table.Tr>
                </>
              ) : null}
            </Table.Tbody>
          </Table>
          <Divider />
          <Text size="xs" c="dimmed">{t('receipt.taxNote')}</Text>
          {order.status === 'refunded' && order.refundedAt ? (
            <Text size="sm" data-testid="receipt-refunded">{t('receipt.refundedAt', { date: when(order.refundedAt) })}</Text>
          ) : null}
        </Stack>
      </Card>
    </Stack>
  );
}

/** "Back" points the way the page reads: left in English, right in Persian. */
function BackArrow(): ReactNode {
  const { dir } = useDirection();
  return dir === 'rtl' ? <IconArrowRight size={16} /> : <IconArrowLeft size={16} />;
}
