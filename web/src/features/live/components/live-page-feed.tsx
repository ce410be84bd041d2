import { Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBroadcast, IconBroadcastOff, IconCash, IconPlayerStop, IconReceiptRefund, IconUserPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import type { Activity, FeedEntry } from '../live-page-model';

const ICONS: Record<Activity['kind'], { icon: typeof IconCash; color: string }> = {
  signup: { icon: IconUserPlus, color: 'blue' },
  sale: { icon: IconCash, color: 'green' },
  refund: { icon: IconReceiptRefund, color: 'orange' },
  payment_failed: { icon: IconAlertTriangle, color: 'red' },
  show_live: { icon: IconBroadcast, color: 'red' },
  show_dropped: { icon: IconBroadcastOff, color: 'gray' },
  show_ended: { icon: IconPlayerStop, color: 'grape' },
};

/** Names and titles are the users' own words, in any script: isolated so that a Latin name
 * in a Persian sentence (or the reverse) keeps the sentence's order. */
const isolate = (text: string): string => `\u2068${text}\u2069`;

/** The feed line's message: a pass bought (no concert) and an order refunded (not one
 * concert's ticket) have their own. */
function feedKey(activity: Activity): Activity['kind'] | 'sale_pass' | 'refund_order' {
  if (activity.kind === 'sale' && !activity.eventId) return 'sale_pass';
  if (activity.kind === 'refund' && !activity.eventTitle) return 'refund_order';
  return activity.kind;
}

/** What an activity says, in the reader's language (the feed's line, a staff toast's title). */
export function useActivityText(): (activity: Activity) => string {
  const { t } = useTranslation('dashboard');
  return (activity) =>
    t(`live.feed.${feedKey(activity)}`, {
      name: isolate(activity.accountName ?? t('live.feed.someone')),
      title: isolate(activity.eventTitle ?? t('live.feed.aConcert')),
    });
}

export const activityIcon = (kind: Activity['kind']): { icon: typeof IconCash; color: string } => ICONS[kind];

function FeedLine({ activity }: { activity: Activity }): ReactNode {
  const { i18n } = useTranslation('dashboard');
  const locale = localeOf(i18n.language);
  const { icon: Icon, color } = ICONS[activity.kind];
  const text = useActivityText()(activity);
  const amount = activity.amount != null && activity.currency ? formatPrice(activity.amount, activity.currency, locale) : null;
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="live-feed-item" data-kind={activity.kind} data-event={activity.eventId ?? undefined}>
      <ThemeIcon variant="light" color={color} size="md" radius="xl">
        <Icon size={16} />
      </ThemeIcon>
      <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm">{text}</Text>
        <Text size="xs" c="dimmed" data-testid="live-feed-time">
          {formatTime(activity.at, locale, { timeStyle: 'medium' })}
        </Text>
      </Stack>
      {amount ? (
        <Text size="sm" fw={600} style={{ flexShrink: 0 }} c={activity.kind === 'sale' ? undefined : 'dimmed'}>
          {amount}
        </Text>
      ) : null}
    </Group>
  );
}

/** Sales, sign-ups, refunds, failed payments and shows, newest first. */
export function LiveFeed({ feed }: { feed: FeedEntry[] }): ReactNode {
  const { t } = useTranslation('dashboard');
  return (
    <Card withBorder padding="md" data-testid="live-feed">
      <Stack gap="sm">
        <Title order={3}>{t('live.feed.title')}</Title>
        {feed.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('live.feed.empty')}
          </Text>
        ) : (
          feed.map((entry) => <FeedLine key={entry.key} activity={entry.activity} />)
        )}
      </Stack>
    </Card>
  );
}
