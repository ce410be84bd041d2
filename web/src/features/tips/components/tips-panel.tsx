import { Badge, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { formatPrice } from '../../cart/model';
import { eventChannel } from '../../live/socket-protocol';
import { useLiveChannel } from '../../live/socket-provider';
import type { TipList } from '../model';
import { withTip } from '../model';
import { tipKeys, tipsQueryOptions } from '../queries';

/** The artist's live panel: each tip as it arrives (`tip_paid` on `event:<id>`), newest
 * first, who, how much and what they wrote, and the totals per currency. */
export function TipsPanel({ eventId }: { eventId: string }): ReactNode {
  const { t, i18n } = useTranslation('tips');
  const locale = localeOf(i18n.language);
  const queryClient = useQueryClient();
  const pushed = useLiveChannel(eventChannel(eventId), (message) => {
    if (message.type === 'tip_paid') queryClient.setQueryData<TipList>(tipKeys.list(eventId), (list) => withTip(list, message.tip));
    else if (message.type === 'subscribed' && !message.recovered) void queryClient.invalidateQueries({ queryKey: tipKeys.list(eventId) });
  });
  const list = useQuery(tipsQueryOptions(eventId, pushed));
  if (list.isPending) return <Skeleton h={48} />;
  if (list.isError) return <Text c="red">{errorText(list.error, t)}</Text>;
  return (
    <Stack gap="xs" data-testid="tips-panel">
      <Group justify="space-between">
        <Text fw={600}>{t('panel.title')}</Text>
        <Group gap={4} data-testid="tips-totals">
          {list.data.totals.map((total) => (
            <Badge key={total.currency} color="grape" variant="light">
              {t('panel.total', { amount: formatPrice(total.amount, total.currency, locale), count: total.count })}
            </Badge>
          ))}
        </Group>
      </Group>
      {list.data.tips.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('panel.none')}
        </Text>
      ) : (
        list.data.tips.map((tip) => (
          <Card key={tip.id} withBorder padding="xs" data-testid="tips-panel-tip">
            <Group gap="xs" wrap="wrap">
              <Text fw={700} size="sm">
                <bdi>{tip.author}</bdi>
              </Text>
              <Badge color="grape" data-testid="tips-panel-amount">
                {formatPrice(tip.amount, tip.currency, locale)}
              </Badge>
              {tip.message ? (
                <Text size="sm" dir="auto">
                  {tip.message}
                </Text>
              ) : null}
            </Group>
          </Card>
        ))
      )}
    </Stack>
  );
}
