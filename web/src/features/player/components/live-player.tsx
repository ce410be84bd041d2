import { ActionIcon, Alert, Badge, Box, Button, Card, Group, Loader, Slider, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconHeadphones, IconPlayerPause, IconPlayerPlay, IconPlayerTrackNext, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EncoreEvent } from '../../events/model';
import { countdown, countdownText, isolateLtr } from '../../events/model';
import type { Chapter } from '../chapters';
import { chapterAt, sameChapters } from '../chapters';
import { formatClock, isTicking, position } from '../model';
import { useStreamSession } from '../use-stream-session';

interface Snapshot {
  now: number;
  currentTime: number;
  paused: boolean;
  range: { start: number; end: number } | null;
  liveEdge: number | null;
  latency: number | null;
  chapters: Chapter[];
}

const TICK_MS = 250;

function seekableRange(audio: HTMLAudioElement): { start: number; end: number } | null {
  const ranges = audio.seekable;
  if (ranges.length === 0) return null;
  const end = ranges.end(ranges.length - 1);
  if (!Number.isFinite(end)) return null;
  return { start: ranges.start(0), end };
}

/**
 * The fan's player: the controls over a listening session (`useStreamSession`): Listen, the
 * wait for the artist, live or replay with seek and volume, and why the server denied it.
 */
export function LivePlayer({ event }: { event: Pick<EncoreEvent, 'id' | 'startsAt'> }): ReactNode {
  const { t } = useTranslation('player');
  const audioRef = useRef<HTMLAudioElement>(null);
  const { phase, live, listen, opening, engine: engineRef } = useStreamSession(event.id, audioRef);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [seeking, setSeeking] = useState<number | null>(null);
  const [snap, setSnap] = useState<Snapshot>(() => ({ now: Date.now(), currentTime: 0, paused: true, range: null, liveEdge: null, latency: null, chapters: [] }));

  // The controls' view of the media element (and of hls.js's live edge), while there is one.
  const ticking = isTicking(phase);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => {
      const audio = audioRef.current;
      if (!audio) return;
      const chapters = engineRef.current?.chapters() ?? [];
      setSnap((previous) => ({
        now: Date.now(),
        currentTime: audio.currentTime,
        paused: audio.paused,
        range: seekableRange(audio),
        liveEdge: engineRef.current?.liveEdge() ?? null,
        latency: engineRef.current?.latency() ?? null,
        // The same list is kept while the playlist's titles do not change.
        chapters: sameChapters(previous.chapters, chapters) ? previous.chapters : chapters,
      }));
    }, TICK_MS);
    return () => {
      clearInterval(timer);
    };
  }, [ticking, engineRef]);

  const where = position(snap.currentTime, snap.range, live === true, snap.liveEdge);
  // What the listener hears now: their own position, which may be well behind the live edge.
  const playing = chapterAt(snap.chapters, snap.currentTime);

  const togglePlay = (): void => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) audio.play().catch(() => undefined);
    else audio.pause();
  };
  const backToLive = (): void => {
    const audio = audioRef.current;
    if (!audio) return;
    const edge = snap.liveEdge ?? (snap.range ? snap.range.end - 1 : null);
    if (edge !== null) audio.currentTime = edge;
    audio.play().catch(() => undefined);
  };
  const seekTo = (chapter: Chapter): void => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.currentTime = chapter.start;
    audio.play().catch(() => undefined);
  };

  let body: ReactNode;
  if (phase.kind === 'idle') {
    body = (
      <Button leftSection={<IconHeadphones size={16} />} onClick={listen} data-testid="player-listen">
        {t('listen')}
      </Button>
    );
  } else if (phase.kind === 'connecting') {
    body = (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">{t('connecting')}</Text>
      </Group>
    );
  } else if (phase.kind === 'waiting') {
    const start = Date.parse(event.startsAt);
    body = (
      <Stack gap={4} data-testid="player-waiting">
        <Group gap="xs" wrap="nowrap">
          <Loader size="xs" type="dots" />
          <Text size="sm" fw={600}>
            {start > snap.now
              ? t('startsIn', { time: countdownText(countdown(start, snap.now), (count) => t('events:countdownDays', { count }), isolateLtr) })
              : t('waiting')}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('waitingHint')}
        </Text>
      </Stack>
    );
  } else if (phase.kind === 'denied') {
    body = (
      <Alert color={phase.denial === 'expired' ? 'gray' : 'orange'} data-testid="player-denied" data-denial={phase.denial}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t(`denied.${phase.denial}`)}</Text>
          {phase.denial === 'expired' ? null : (
            <Button size="xs" onClick={listen} loading={opening} data-testid="player-listen-here">
              {phase.denial === 'superseded' ? t('listenHere') : t('listenAgain')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  } else if (phase.kind === 'refused' || phase.kind === 'failed') {
    body = (
      <Alert color="red" data-testid="player-refused">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{phase.kind === 'refused' ? phase.message : t('failed')}</Text>
          <Button size="xs" variant="light" onClick={listen} loading={opening}>
            {t('listenAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    const shownTime = seeking ?? where.elapsed + where.start;
    body = (
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <ActionIcon
              size="lg"
              radius="xl"
              onClick={togglePlay}
              aria-label={snap.paused ? t('play') : t('pause')}
              data-testid="player-toggle"
            >
              {snap.paused ? <IconPlayerPlay size={18} /> : <IconPlayerPause size={18} />}
            </ActionIcon>
            {live === false ? (
              <Badge color="grape" variant="light" data-testid="player-replay">
                {t('replay')}
              </Badge>
            ) : where.atLiveEdge ? (
              <Badge color="red" variant="filled" data-testid="player-live-badge">
                {t('live')}
              </Badge>
            ) : null}
          </Group>
          {live === true && !where.atLiveEdge && where.duration > 0 ? (
            <Button size="compact-xs" variant="light" color="red" rightSection={<IconPlayerTrackNext size={14} />} onClick={backToLive} data-testid="player-back-to-live">
              {t('backToLive')}
            </Button>
          ) : null}
        </Group>
        {playing ? <NowPlaying chapter={playing} /> : null}
        {/* Media timelines read left to right in every language. */}
        <Box dir="ltr">
          <Slider
            size="sm"
            min={where.start}
            max={Math.max(where.end, where.start + 0.001)}
            step={0.1}
            value={Math.min(shownTime, Math.max(where.end, where.start))}
            label={(value) => formatClock(value - where.start)}
            onChange={setSeeking}
            onChangeEnd={(value) => {
              setSeeking(null);
              if (audioRef.current) audioRef.current.currentTime = value;
            }}
            disabled={where.duration <= 0}
            aria-label={t('seek')}
            data-testid="player-seek"
          />
          <Group justify="space-between" mt={4}>
            <Text size="xs" c="dimmed" data-testid="player-time">
              {formatClock(shownTime - where.start)} / {formatClock(where.duration)}
            </Text>
            <Group gap={4} wrap="nowrap" w={140}>
              <ActionIcon
                variant="subtle"
                size="sm"
                onClick={() => {
                  const audio = audioRef.current;
                  if (!audio) return;
                  audio.muted = !muted;
                  setMuted(!muted);
                }}
                aria-label={muted ? t('unmute') : t('mute')}
              >
                {muted || volume === 0 ? <IconVolumeOff size={16} /> : <IconVolume size={16} />}
              </ActionIcon>
              <Slider
                flex={1}
                size="xs"
                min={0}
                max={1}
                step={0.05}
                value={muted ? 0 : volume}
                label={null}
                onChange={(value) => {
                  setVolume(value);
                  const audio = audioRef.current;
                  if (!audio) return;
                  audio.volume = value;
                  if (muted && value > 0) {
                    audio.muted = false;
                    setMuted(false);
                  }
                }}
                aria-label={t('volume')}
              />
            </Group>
          </Group>
        </Box>
        {/* The replay, or a listener behind live: the songs to jump to. */}
        {snap.chapters.length > 0 && (live === false || !where.atLiveEdge) ? (
          <ChapterList chapters={snap.chapters} playing={playing} origin={where.start} onSeek={seekTo} />
        ) : null}
      </Stack>
    );
  }

  return (
    <Card
      withBorder
      padding="sm"
      data-testid="player"
      data-phase={phase.kind}
      data-live={live === null ? undefined : String(live)}
      data-latency={snap.latency === null ? undefined : snap.latency.toFixed(3)}
    >
      <audio ref={audioRef} preload="none" data-testid="player-audio" style={{ display: 'none' }} />
      {body}
    </Card>
  );
}

function NowPlaying({ chapter }: { chapter: Chapter }): ReactNode {
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

function ChapterList({ chapters, playing, origin, onSeek }: { chapters: Chapter[]; playing: Chapter | null; origin: number; onSeek: (chapter: Chapter) => void }): ReactNode {
  const { t } = useTranslation('player');
  return (
    <Stack gap={2} data-testid="player-chapters">
      <Text size="xs" fw={600} c="dimmed">
        {t('chapters')}
      </Text>
      <Stack gap={0} mah={220} style={{ overflowY: 'auto' }}>
        {chapters.map((chapter) => {
          const current = chapter.id === playing?.id;
          return (
            // Spans only: a button holds phrasing content.
            <UnstyledButton
              key={chapter.id}
              onClick={() => {
                onSeek(chapter);
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
                  {formatClock(chapter.start - origin)}
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
