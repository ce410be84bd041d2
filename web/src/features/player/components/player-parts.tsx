/** The player's controls, shared by the mini-player and the stage view. */
import { ActionIcon, Alert, Badge, Box, Button, DirectionProvider, Group, Loader, Slider, Stack, Text, UnstyledButton } from '@mantine/core';
import type { MantineSize } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerTrackNext, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { countdown, countdownText, isolateLtr } from '../../events/model';
import { useNow } from '../../../lib/use-now';
import { formatDateTime } from '../../../i18n/dates';
import { localDigits } from '../../../i18n/numbers';
import { useLocale } from '../../events/components/event-parts';
import type { Chapter } from '../chapters';
import { chapterAt } from '../chapters';
import { formatClock, formatCount, formatLatency, position, timeLeft } from '../model';
import type { Position } from '../model';
import { appPlayer } from '../player';
import type { PlayerSnapshot } from '../player-store';
import classes from './player.module.css';

/** Where the listener stands in the show, from the snapshot. */
export function whereOf(snapshot: PlayerSnapshot): Position {
  return position(snapshot.currentTime, snapshot.range, snapshot.live === true, snapshot.liveEdge);
}

export function PlayToggle({ snapshot, size = 'lg' }: { snapshot: PlayerSnapshot; size?: MantineSize }): ReactNode {
  const { t } = useTranslation('player');
  const disabled = snapshot.phase.kind !== 'playing';
  return (
    <ActionIcon
      size={size}
      radius="xl"
      onClick={() => {
        appPlayer().toggle();
      }}
      disabled={disabled}
      aria-label={snapshot.paused ? t('play') : t('pause')}
      data-testid="player-toggle"
    >
      {snapshot.paused ? <IconPlayerPlay size={18} /> : <IconPlayerPause size={18} />}
    </ActionIcon>
  );
}

/** "● LIVE · 1.0 s behind", "-12:34 · Back to live", or "Replay". */
export function LiveState({ snapshot }: { snapshot: PlayerSnapshot }): ReactNode {
  const { t } = useTranslation(['stage', 'player']);
  const locale = useLocale();
  if (snapshot.phase.kind !== 'playing' || snapshot.live === null) return null;
  if (!snapshot.live) {
    return (
      <Badge color="grape" variant="light" data-testid="player-replay" style={{ flexShrink: 0 }}>
        {t('player:replay')}
      </Badge>
    );
  }
  if (snapshot.reconnecting) {
    return (
      <Text size="sm" fw={700} c="orange" data-testid="player-reconnecting" style={{ whiteSpace: 'nowrap' }}>
        {t('reconnecting')}
      </Text>
    );
  }
  const where = whereOf(snapshot);
  if (where.atLiveEdge) {
    return (
      <Text size="sm" fw={700} c="red" data-testid="player-live-badge" style={{ whiteSpace: 'nowrap' }}>
        {/* The latency hls.js measures: how far behind the artist the listener is. */}
        {snapshot.latency === null ? t('liveDot') : t('liveBehind', { seconds: formatLatency(snapshot.latency, locale) })}
      </Text>
    );
  }
  const behind = Math.max(0, (snapshot.liveEdge ?? where.end) - snapshot.currentTime);
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" ff="monospace" dir="ltr" data-testid="player-behind" style={{ whiteSpace: 'nowrap' }}>
        -{formatClock(behind, locale)}
      </Text>
      <Button
        size="compact-xs"
        variant="light"
        color="red"
        rightSection={<IconPlayerTrackNext size={14} />}
        onClick={() => {
          appPlayer().backToLive();
        }}
        data-testid="player-back-to-live"
      >
        {t('player:backToLive')}
      </Button>
    </Group>
  );
}

/**
 * A slider that reads left to right in every language (media timelines are not mirrored):
 * Mantine's own direction and the element's agree, so its fill and its handle do too.
 */
function LtrSlider(props: React.ComponentProps<typeof Slider>): ReactNode {
  return (
    <DirectionProvider initialDirection="ltr" detectDirection={false}>
      <Box dir="ltr" className={classes.ltr} flex={props.flex}>
        <Slider {...props} classNames={{ thumb: classes.thumb }} />
      </Box>
    </DirectionProvider>
  );
}

export function SeekBar({ snapshot, withTimes = true }: { snapshot: PlayerSnapshot; withTimes?: boolean }): ReactNode {
  const { t } = useTranslation('player');
  const locale = useLocale();
  const [seeking, setSeeking] = useState<number | null>(null);
  const where = whereOf(snapshot);
  const shown = seeking ?? where.elapsed + where.start;
  return (
    <Box>
      <LtrSlider
        size="sm"
        min={where.start}
        max={Math.max(where.end, where.start + 0.001)}
        step={0.1}
        value={Math.min(shown, Math.max(where.end, where.start))}
        label={(value) => formatClock(value - where.start, locale)}
        onChange={setSeeking}
        onChangeEnd={(value) => {
          setSeeking(null);
          appPlayer().seek(value);
        }}
        disabled={where.duration <= 0}
        aria-label={t('seek')}
        data-testid="player-seek"
      />
      {withTimes ? (
        <Group justify="space-between" mt={4} dir="ltr">
          <Text size="xs" c="dimmed" data-testid="player-time">
            {formatClock(shown - where.start, locale)}
          </Text>
          <Text size="xs" c="dimmed" data-testid="player-duration">
            {formatClock(where.duration, locale)}
          </Text>
        </Group>
      ) : null}
    </Box>
  );
}

export function VolumeControl({ snapshot, width = 140 }: { snapshot: PlayerSnapshot; width?: number }): ReactNode {
  const { t } = useTranslation('player');
  return (
    <Group gap={4} wrap="nowrap" w={width} data-testid="player-volume-group">
      <ActionIcon
        variant="subtle"
        size="sm"
        onClick={() => {
          appPlayer().toggleMute();
        }}
        aria-label={snapshot.muted ? t('unmute') : t('mute')}
        data-testid="player-mute"
      >
        {snapshot.muted || snapshot.volume === 0 ? <IconVolumeOff size={16} /> : <IconVolume size={16} />}
      </ActionIcon>
      <LtrSlider
        flex={1}
        size="xs"
        min={0}
        max={1}
        step={0.05}
        value={snapshot.muted ? 0 : snapshot.volume}
        label={null}
        onChange={(value) => {
          appPlayer().setVolume(value);
        }}
        aria-label={t('volume')}
        data-testid="player-volume"
      />
    </Group>
  );
}

/** "128 listening now", from the server's live figures. */
export function ListenersText({ snapshot }: { snapshot: PlayerSnapshot }): ReactNode {
  const { t } = useTranslation('stage');
  const locale = useLocale();
  if (snapshot.listeners === null || snapshot.phase.kind !== 'playing' || snapshot.live !== true) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="player-listeners" data-count={snapshot.listeners}>
      {t('listeners', { number: formatCount(snapshot.listeners, locale) })}
    </Text>
  );
}

/** After the show: "Replay available until …" with the time left. */
export function ReplayUntil({ accessUntil }: { accessUntil: string }): ReactNode {
  const { t } = useTranslation(['stage', 'events']);
  const locale = useLocale();
  const now = useNow();
  const until = Date.parse(accessUntil);
  const { days, hours, minutes } = timeLeft(until - now);
  const left = days > 0 ? t('left.days', { days, hours }) : hours > 0 ? t('left.hours', { hours, minutes }) : t('left.minutes', { minutes });
  const date = formatDateTime(until, locale, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  return (
    <Text size="sm" data-testid="player-replay-until" data-until={accessUntil}>
      {t('replayUntil', { date, left })}
    </Text>
  );
}

export function NowPlaying({ chapter }: { chapter: Chapter }): ReactNode {
  const { t } = useTranslation('player');
  return (
    <Text size="sm" lineClamp={2} data-testid="player-now-playing" data-chapter={chapter.id}>
      <Text span c="dimmed" size="sm">
        {t('nowPlaying')}
      </Text>{' '}
      {/* A title keeps its own direction inside the sentence (dir isolates it). */}
      <Text span fw={600} size="sm" dir="auto" data-testid="player-now-playing-title">
        {chapter.title}
      </Text>
      {chapter.artist ? (
        <>
          {' · '}
          <Text span size="sm" dir="auto" data-testid="player-now-playing-artist">
            {chapter.artist}
          </Text>
        </>
      ) : null}
    </Text>
  );
}

/** The song playing at the listener's own position (which may be well behind live). */
export function playingChapter(snapshot: PlayerSnapshot): Chapter | null {
  return chapterAt(snapshot.chapters, snapshot.currentTime);
}

export function ChapterList({ snapshot }: { snapshot: PlayerSnapshot }): ReactNode {
  const { t } = useTranslation('player');
  const locale = useLocale();
  const playing = playingChapter(snapshot);
  const origin = whereOf(snapshot).start;
  return (
    <Stack gap={2} data-testid="player-chapters">
      <Text size="xs" fw={600} c="dimmed">
        {t('chapters')}
      </Text>
      <Stack gap={0} mah={260} style={{ overflowY: 'auto' }}>
        {snapshot.chapters.map((chapter) => {
          const current = chapter.id === playing?.id;
          return (
            // Spans only: a button holds phrasing content.
            <UnstyledButton
              key={chapter.id}
              onClick={() => {
                appPlayer().seek(chapter.start);
                appPlayer().resume();
              }}
              px={6}
              py={3}
              style={{ borderRadius: 4, background: current ? 'var(--mantine-color-default-hover)' : undefined }}
              aria-current={current ? 'true' : undefined}
              aria-label={t('chapterSeek', { title: chapter.title })}
              data-testid="player-chapter"
              data-start={chapter.start.toFixed(3)}
            >
              <Group component="span" gap="xs" wrap="nowrap">
                {/* The clock reads left to right in every language. */}
                <Text component="span" size="xs" c="dimmed" ff="monospace" dir="ltr" style={{ flexShrink: 0 }}>
                  {formatClock(chapter.start - origin, locale)}
                </Text>
                <Text component="span" size="sm" fw={current ? 700 : undefined} dir="auto" truncate>
                  {chapter.title}
                </Text>
                {chapter.artist ? (
                  <Text component="span" size="xs" c="dimmed" dir="auto" truncate>
                    {chapter.artist}
                  </Text>
                ) : null}
              </Group>
            </UnstyledButton>
          );
        })}
      </Stack>
    </Stack>
  );
}

/** What the player says while it does not play: connecting, waiting, denied, refused. */
export function SessionMessage({ snapshot, compact = false }: { snapshot: PlayerSnapshot; compact?: boolean }): ReactNode {
  const { t } = useTranslation('player');
  const locale = useLocale();
  const now = useNow();
  const { phase, concert } = snapshot;
  if (phase.kind === 'connecting') {
    return (
      <Group gap="xs" wrap="nowrap">
        <Loader size="xs" />
        <Text size="sm">{t('connecting')}</Text>
      </Group>
    );
  }
  if (phase.kind === 'waiting') {
    const start = concert ? Date.parse(concert.startsAt) : 0;
    const said =
      start > now
        ? t('startsIn', { time: localDigits(countdownText(countdown(start, now), (count) => t('events:countdownDays', { count }), isolateLtr), locale) })
        : t('waiting');
    return (
      <Stack gap={2} miw={0} data-testid="player-waiting">
        {/* In the mini-player one line ("Waiting…", the whole sentence as its title), and on
            a phone only the dots (the stage says it whole): never four lines. */}
        <Group gap="xs" wrap="nowrap" miw={0} title={compact ? said : undefined}>
          <Loader size="xs" type="dots" style={{ flexShrink: 0 }} aria-label={compact ? said : undefined} />
          <Text size="sm" fw={600} truncate={compact} miw={0} className={compact ? classes.miniWide : undefined}>
            {compact && start <= now ? t('waitingShort') : said}
          </Text>
        </Group>
        {compact ? null : (
          <Text size="xs" c="dimmed">
            {t('waitingHint')}
          </Text>
        )}
      </Stack>
    );
  }
  if (phase.kind === 'denied') {
    return (
      <Alert color={phase.denial === 'expired' ? 'gray' : 'orange'} p={compact ? 6 : undefined} data-testid="player-denied" data-denial={phase.denial}>
        <Group gap="xs" wrap={compact ? 'nowrap' : 'wrap'}>
          <Text size="sm">{t(`denied.${phase.denial}`)}</Text>
          {phase.denial === 'expired' ? null : (
            <Button
              size="compact-sm"
              onClick={() => {
                appPlayer().listen();
              }}
              loading={snapshot.opening}
              data-testid="player-listen-here"
            >
              {phase.denial === 'superseded' ? t('listenHere') : t('listenAgain')}
            </Button>
          )}
        </Group>
      </Alert>
    );
  }
  if (phase.kind === 'refused' || phase.kind === 'failed') {
    return (
      <Alert color="red" p={compact ? 6 : undefined} data-testid="player-refused">
        <Group gap="xs" wrap={compact ? 'nowrap' : 'wrap'}>
          <Text size="sm">{phase.kind === 'refused' ? phase.message : t('failed')}</Text>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => {
              appPlayer().listen();
            }}
            loading={snapshot.opening}
          >
            {t('listenAgain')}
          </Button>
        </Group>
      </Alert>
    );
  }
  return null;
}
