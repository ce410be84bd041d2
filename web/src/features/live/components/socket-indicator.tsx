import { Box, Group, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveCloseReason, useLiveConnection } from '../socket-provider';
import type { Phase } from '../socket-state';

const SHOWN = {
  live: { color: 'teal', label: 'connection.live', hint: 'connection.liveHint' },
  connecting: { color: 'gray', label: 'connection.connecting', hint: 'connection.reconnectingHint' },
  reconnecting: { color: 'yellow', label: 'connection.reconnecting', hint: 'connection.reconnectingHint' },
  offline: { color: 'gray', label: 'connection.offline', hint: 'connection.offlineHint' },
} as const satisfies Partial<Record<Phase, unknown>>;

/** The navbar's quiet word on the live socket: live, reconnecting…, or not live (polling);
 * its tooltip says why the socket closed. */
export function SocketIndicator(): ReactNode {
  const { t } = useTranslation();
  const phase = useLiveConnection();
  const reason = useLiveCloseReason();
  if (!(phase in SHOWN)) return null;
  const shown = SHOWN[phase as keyof typeof SHOWN];
  // Why the socket closed, in the reader's words, before what happens now.
  const hint = reason && phase !== 'live' ? `${t(`connection.closed.${reason}`)} ${t(shown.hint)}` : t(shown.hint);
  return (
    <Tooltip label={hint} multiline w={260} withArrow>
      <Group gap={6} wrap="nowrap" data-testid="live-indicator" data-phase={phase} data-reason={reason ?? undefined} role="status" aria-label={t(shown.label)}>
        <Box w={8} h={8} bg={shown.color} style={{ borderRadius: '50%', flexShrink: 0 }} />
        <Text size="xs" c="dimmed" visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
          {t(shown.label)}
        </Text>
      </Group>
    </Tooltip>
  );
}
