import { Alert, Badge, Button, Card, Checkbox, Code, CopyButton, Divider, Group, Progress, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconMicrophone, IconPlayerStop } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { useNow } from '../../../lib/use-now';
import { eventChannel } from '../../live/socket-protocol';
import { useLiveChannel } from '../../live/socket-provider';
import { formatClock } from '../../player/model';
import { canGoLiveLossless, goLive } from '../go-live';
import type { GoLiveSession, GoLiveState } from '../go-live';
import type { LiveStatus, StreamKeyInfo } from '../model';
import { ffmpegCommand } from '../model';
import type { EncoderAudio } from '../model';
import { useEndShow, useRotateStreamKey } from '../mutations';
import { eventKeys, liveStatusQueryOptions, streamKeyQueryOptions } from '../queries';
import { MarkersPanel } from './markers-panel';
import { RoomPanel } from '../../room/components/room-panel';
import { RoomModerationLog } from '../../room/components/room-moderation-log';
import { RoomReports } from '../../room/components/room-reports';
import { useRoomReports } from '../../room/use-reports';
import { useRoom } from '../../room/use-room';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TipsPanel } from '../../tips/components/tips-panel';

/** Stands for the key in the ffmpeg example once the key is no longer shown. */
const KEY_PLACEHOLDER = 'STREAM_KEY';

/** The command on screen masks the key; the Copy button copies the real one. */
function ffmpegShown(encoderUrl: string, key: string | null, audio: EncoderAudio = 'aac'): { value: string; shown: string } {
  const { shown, copied } = ffmpegCommand(encoderUrl, key, KEY_PLACEHOLDER, audio);
  return { value: copied, shown };
}

function Copyable({ value, shown, testId }: { value: string; shown: string; testId?: string }): ReactNode {
  const { t } = useTranslation('events');
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block flex={1} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} dir="ltr" data-testid={testId}>
        {shown}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" onClick={copy}>
            {copied ? t('manage.copied') : t('manage.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** A duration in the reader's digits (Persian ones in Persian), kept left to right. */
const clock = (seconds: number, locale: string): string => `\u2066${formatClock(seconds, locale)}\u2069`;

/** The encoder is away: how long, counted here each second from the server's figures (the
 * key remounts it at each new figure), and when the show ends by itself. */
function AwayCountdown({ away, left }: { away: number; left: number }): ReactNode {
  const { t, i18n } = useTranslation('events');
  const locale = localeOf(i18n.language);
  const [from] = useState(() => Date.now());
  const drift = Math.max(0, (useNow(1000) - from) / 1000);
  return (
    <Text size="sm" c="orange" data-testid="live-away" data-left={Math.round(Math.max(0, left - drift))}>
      {t('manage.live.away', { away: clock(away + drift, locale), left: clock(Math.max(0, left - drift), locale) })}
    </Text>
  );
}

export function LiveStatusView({ status }: { status: LiveStatus }): ReactNode {
  const { t, i18n } = useTranslation('events');
  const locale = localeOf(i18n.language);
  const away = !status.ended && !status.publisherConnected && status.awaySeconds != null ? status.awaySeconds : null;
  const state = status.ended ? 'ended' : status.publisherConnected ? 'connected' : away != null ? 'away' : 'offline';
  const color = state === 'connected' ? 'red' : state === 'ended' ? 'grape' : state === 'away' ? 'orange' : 'gray';
  return (
    <Stack gap={6}>
      <Group gap="xs">
        {/* The state is a sentence in some languages (Persian's "away" fills a phone's width):
            it wraps instead of ending in an ellipsis. */}
        <Badge
          color={color}
          variant={state === 'connected' ? 'filled' : 'light'}
          data-testid="live-status"
          data-state={state}
          maw="100%"
          h="auto"
          py={4}
          styles={{ label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip' } }}
        >
          {t(`manage.live.state.${state}`)}
        </Badge>
      </Group>
      {away != null && status.endsInSeconds != null ? (
        <AwayCountdown key={`${String(away)}:${String(status.endsInSeconds)}`} away={away} left={status.endsInSeconds} />
      ) : null}
      <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
        <Text size="sm" data-testid="live-recorded" data-seconds={status.recordedSeconds.toFixed(1)}>
          {t('manage.live.recorded', { time: clock(status.recordedSeconds, locale) })}
        </Text>
        <Text size="sm">{t('manage.live.connected', { time: clock(status.connectedSeconds, locale) })}</Text>
        <Text size="sm">{t('manage.live.bitrate', { kbps: Math.round(status.bitrateKbps) })}</Text>
        <Text size="sm">{t('manage.live.segments', { count: status.segments })}</Text>
        <Text size="sm" data-testid="live-listeners" data-count={status.listeners}>
          {t('manage.live.listeners', { count: status.listeners })}
        </Text>
      </SimpleGrid>
    </Stack>
  );
}

function goLiveText(state: GoLiveState, t: (key: string, options?: Record<string, unknown>) => string): string {
  switch (state.kind) {
    case 'starting':
      return t('manage.goLive.starting');
    case 'live':
      return t('manage.goLive.live');
    case 'ended':
      return t('manage.goLive.ended');
    case 'stopped':
      return t('manage.goLive.stopped');
    case 'error':
      if (state.reason === 'server') return state.message || t('manage.goLive.closed');
      if (state.reason === 'mic') return t('manage.goLive.micFailed', { message: state.message });
      return state.reason === 'unsupported' ? t('manage.goLive.unsupported') : t('manage.goLive.closed');
    default:
      return t('manage.goLive.hint');
  }
}

/** The artist's microphone straight to the show, with a level meter and a Stop button. */
function GoLive({ eventId, info, ended, onChange }: { eventId: string; info: StreamKeyInfo; ended: boolean; onChange: () => void }): ReactNode {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const [state, setState] = useState<GoLiveState>({ kind: 'idle' });
  const [level, setLevel] = useState(0);
  // Remembered on this device: lossless needs an upload this connection can carry.
  const [lossless, setLossless] = useLocalStorage({ key: 'encore.goLive.lossless', defaultValue: false });
  const offersLossless = useMemo(() => canGoLiveLossless(), []);
  const session = useRef<GoLiveSession | null>(null);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      session.current?.stop();
      session.current = null;
    };
  }, []);
  const active = state.kind === 'starting' || state.kind === 'live';
  const start = async (): Promise<void> => {
    // A fresh ticket: the one fetched with the panel may have expired meanwhile.
    const fresh = await queryClient.fetchQuery({ ...streamKeyQueryOptions(eventId), staleTime: 0 }).catch(() => null);
    if (!fresh?.goLiveTicket) {
      setState({ kind: 'error', reason: 'closed', message: '' });
      return;
    }
    void goLive({
      websocketUrl: fresh.websocketUrl,
      ticket: fresh.goLiveTicket,
      onState: (next) => {
        setState(next);
        onChange();
      },
      onLevel: setLevel,
      lossless: offersLossless && lossless,
    }).then((started) => {
      // Closed while the microphone was being opened: let it go at once.
      if (mounted.current) session.current = started;
      else started.stop();
    });
  };
  return (
    <Stack gap="xs" data-testid="go-live" data-state={state.kind}>
      <Text fw={600}>{t('manage.goLive.title')}</Text>
      {state.kind === 'error' ? (
        <Alert color="red" p="xs" data-testid="go-live-error">
          {goLiveText(state, t)}
        </Alert>
      ) : (
        <Text size="sm" c={state.kind === 'live' ? 'red' : 'dimmed'} fw={state.kind === 'live' ? 600 : undefined} data-testid="go-live-text">
          {goLiveText(state, t)}
        </Text>
      )}
      {offersLossless ? (
        <Checkbox
          size="sm"
          checked={lossless}
          disabled={active}
          onChange={(event) => {
            setLossless(event.currentTarget.checked);
          }}
          label={t('manage.goLive.lossless')}
          description={t('manage.goLive.losslessHint')}
          data-testid="go-live-lossless"
        />
      ) : null}
      {state.kind === 'live' && state.withoutLossless ? (
        <Alert color="yellow" p="xs" data-testid="go-live-without-lossless">
          {t('manage.goLive.withoutLossless')}
        </Alert>
      ) : null}
      {active ? <Progress value={level * 100} color={level > 0.9 ? 'red' : 'green'} size="sm" aria-label={t('manage.goLive.level')} data-testid="go-live-level" /> : null}
      <Group gap="xs">
        {active ? (
          <Button
            size="xs"
            color="gray"
            leftSection={<IconPlayerStop size={14} />}
            onClick={() => {
              session.current?.stop();
              session.current = null;
            }}
            data-testid="go-live-stop"
          >
            {t('manage.goLive.stop')}
          </Button>
        ) : (
          <Button
            size="xs"
            color="red"
            leftSection={<IconMicrophone size={14} />}
            disabled={ended || info.keyHint === null}
            onClick={() => {
              setState({ kind: 'starting' });
              void start();
            }}
            data-testid="go-live-start"
          >
            {t('manage.goLive.start')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** Manage-events live panel: stream key, encoder settings, live status, go live, end show. */
export function LivePanel({ eventId }: { eventId: string }): ReactNode {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const key = useQuery(streamKeyQueryOptions(eventId));
  // The concert's live room, with its moderation tools (the artist does not follow a player).
  const room = useRoom(eventId, { followPlayer: false });
  // The reports of its messages still open: those made before, then as they come.
  const reports = useRoomReports(room);
  // The live socket pushes the figures while it follows the concert; else they are polled.
  const pushed = useLiveChannel(eventChannel(eventId), (message) => {
    if (message.type === 'live_status') queryClient.setQueryData<LiveStatus>(eventKeys.live(eventId), message.status);
    else if (message.type === 'subscribed' && !message.recovered) void queryClient.invalidateQueries({ queryKey: eventKeys.live(eventId) });
  });
  const live = useQuery(liveStatusQueryOptions(eventId, pushed));
  // The key answered by a rotation, shown this once: the server keeps only its hash.
  const [newKey, setNewKey] = useState<string | null>(null);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const rotate = useRotateStreamKey(eventId, setNewKey);
  const end = useEndShow(eventId, () => {
    setConfirmEnd(false);
  });
  const refreshStatus = (): void => {
    void queryClient.invalidateQueries({ queryKey: eventKeys.live(eventId) });
  };
  const ended = live.data?.ended ?? false;
  // End show while on air or reconnecting (the show aired): before anything aired there is
  // no show to end (cancelling the concert is the events page's).
  const endable = !!live.data && !ended && (live.data.publisherConnected || live.data.recordedSeconds > 0);

  return (
    <Card withBorder data-testid="live-panel" data-feed={pushed ? 'socket' : 'polling'}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={700}>{t('manage.live.title')}</Text>
          {endable ? (
            <Button size="xs" color="red" variant="light" onClick={() => { setConfirmEnd(true); }} data-testid="live-end">
              {t('manage.live.end')}
            </Button>
          ) : null}
        </Group>
        {live.isPending ? <Skeleton h={48} /> : live.isError ? <Text c="red">{errorText(live.error, t)}</Text> : <LiveStatusView status={live.data} />}
        <Divider />
        <MarkersPanel eventId={eventId} status={live.data} />
        <Divider />
        <TipsPanel eventId={eventId} />
        <Divider />
        <RoomPanel view={room} compact />
        <RoomReports view={room} reports={reports} />
        <RoomModerationLog view={room} reports={reports.reports} />
        <Divider />
        <Text fw={600}>{t('manage.streamKey')}</Text>
        <Text size="sm" c="dimmed">
          {t('manage.streamKeyHint')}
        </Text>
        {key.isPending ? (
          <Skeleton h={32} />
        ) : key.isError ? (
          <Text c="red">{errorText(key.error, t)}</Text>
        ) : (
          <>
            {newKey ? (
              <>
                <Alert color="orange" p="xs" data-testid="stream-key-once">
                  {t('manage.keyShownOnce')}
                </Alert>
                <Copyable value={newKey} shown={newKey} testId="stream-key" />
              </>
            ) : (
              <Text size="sm" data-testid="stream-key-hint">
                {key.data.keyHint ? t('manage.keyEndsWith', { hint: key.data.keyHint }) : t('manage.noKeyYet')}
              </Text>
            )}
            <Group gap="xs">
              <Button size="xs" variant="light" color="orange" loading={rotate.isPending} onClick={() => { rotate.mutate(); }} data-testid="stream-key-rotate">
                {key.data.keyHint ? t('manage.rotateKey') : t('manage.createKey')}
              </Button>
            </Group>
            {key.data.encoderUrl ? (
              <>
                <Text size="sm" fw={600}>
                  {t('manage.live.encoderUrl')}
                </Text>
                <Copyable value={key.data.encoderUrl} shown={key.data.encoderUrl} testId="encoder-url" />
                <Text size="sm" fw={600}>
                  {t('manage.live.ffmpeg')}
                </Text>
                <Copyable {...ffmpegShown(key.data.encoderUrl, newKey)} testId="ffmpeg-example" />
                <Text size="sm" fw={600}>
                  {t('manage.live.ffmpegLossless')}
                </Text>
                <Copyable {...ffmpegShown(key.data.encoderUrl, newKey, 'flac')} testId="ffmpeg-lossless-example" />
              </>
            ) : null}
            <Divider />
            <GoLive eventId={eventId} info={key.data} ended={ended} onChange={refreshStatus} />
          </>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirmEnd}
        onClose={() => { setConfirmEnd(false); }}
        title={t('manage.live.endTitle')}
        cancelLabel={t('form.cancel')}
        confirmLabel={t('manage.live.end')}
        busy={end.isPending}
        onConfirm={() => { end.mutate(); }}
        confirmTestId="live-end-confirm"
      >
        <Text>{t('manage.live.endText')}</Text>
      </ConfirmDialog>
    </Card>
  );
}
