import { ActionIcon, Anchor, Box, Group, Image, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowsMaximize, IconMusic, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { artistPath } from '../../artist/model';
import { appPlayer, usePlayer } from '../player';
import type { NowConcert, PlayerSnapshot } from '../player-store';
import { CastControl, QualityMenu, RenditionText } from './listening-options';
import classes from './player.module.css';
import { ListenersText, LiveState, PlayToggle, SessionMessage, VolumeControl, playingChapter } from './player-parts';

/** Height of the bar at the bottom of the shell while a concert is in the player. */
export const MINI_PLAYER_HEIGHT = 72;

export function stagePath(concertId: string): string {
  return `/stage/${encodeURIComponent(concertId)}`;
}

export function Artwork({ concert, size }: { concert: NowConcert; size: number }): ReactNode {
  const src = concert.thumbnail ?? concert.image;
  if (!src) {
    return (
      <ThemeIcon variant="light" size={size} radius="sm" style={{ flexShrink: 0 }}>
        <IconMusic size={size / 2} />
      </ThemeIcon>
    );
  }
  return <Image src={src} alt="" w={size} h={size} radius="sm" fit="cover" style={{ flexShrink: 0 }} data-testid="player-artwork" />;
}

/** Whether the shell shows the bar: a concert is in the player. */
export function useMiniPlayerShown(): boolean {
  return usePlayer().concert !== null;
}

/**
 * The bar at the bottom of every shell page while a concert is in the player: artwork,
 * title and artist (to the stage view), play/pause, where the listener is against live,
 * listeners, volume, and close.
 */
export function MiniPlayer(): ReactNode {
  const snapshot = usePlayer();
  const { concert } = snapshot;
  if (!concert) return null;
  return <MiniPlayerBar snapshot={snapshot} concert={concert} />;
}

/** The bar on the pages outside the app shell (home, the public concert page): fixed at
 * the bottom while something plays, with room kept for it below the page's content. */
export function FloatingMiniPlayer(): ReactNode {
  const shown = useMiniPlayerShown();
  if (!shown) return null;
  return (
    <>
      <Box h={MINI_PLAYER_HEIGHT} aria-hidden />
      <Box
        pos="fixed"
        bottom={0}
        left={0}
        right={0}
        h={MINI_PLAYER_HEIGHT}
        bg="var(--mantine-color-body)"
        style={{ borderTop: '1px solid var(--mantine-color-default-border)', zIndex: 200 }}
        data-testid="floating-player"
      >
        <MiniPlayer />
      </Box>
    </>
  );
}

/** The song playing, compact under the concert ("♪ Title", cut to one line); nothing
 * between songs or where the show has no titles. */
function MiniPlayerSong({ snapshot }: { snapshot: PlayerSnapshot }): ReactNode {
  const { t } = useTranslation('player');
  const song = snapshot.phase.kind === 'playing' ? playingChapter(snapshot) : null;
  if (!song) return null;
  const label = t('nowPlayingSong', { title: song.title });
  return (
    <Text size="xs" lh={1.3} lineClamp={1} dir="auto" title={label} aria-label={label} data-testid="mini-player-song" data-chapter={song.id}>
      {t('nowPlayingBar', { title: song.title })}
    </Text>
  );
}

/** The concert in the bar. On a phone, artwork and words are one link to the stage, a
 * thumb-sized target (the stage links the artist). Wider, the title's link covers the block
 * and the artist's name above it opens the artist's page, as on every concert card. */
function MiniConcert({ snapshot, concert }: { snapshot: PlayerSnapshot; concert: NowConcert }): ReactNode {
  const wide = useMediaQuery('(min-width: 36em)', false, { getInitialValueInEffect: false });
  const title = (
    <Text fw={700} size="sm" lh={1.3} lineClamp={1} dir="auto" data-testid="mini-player-title">
      {concert.title}
    </Text>
  );
  const artist = (
    <Text size="xs" c="dimmed" lineClamp={1} lh={1.3} dir="auto" data-testid="mini-player-artist">
      {concert.artistName}
    </Text>
  );
  if (!wide || !concert.projectId) {
    return (
      <UnstyledButton component={Link} to={stagePath(concert.id)} className={classes.miniConcert} data-testid="mini-player-concert">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Artwork concert={concert} size={48} />
          <Box miw={0}>
            {title}
            {artist}
            <MiniPlayerSong snapshot={snapshot} />
          </Box>
        </Group>
      </UnstyledButton>
    );
  }
  return (
    <Box className={classes.miniConcert} pos="relative">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Artwork concert={concert} size={48} />
        <Box miw={0}>
          <UnstyledButton component={Link} to={stagePath(concert.id)} className="encore-card-link" data-testid="mini-player-concert">
            {title}
          </UnstyledButton>
          <Anchor component={Link} to={artistPath(concert.projectId)} c="dimmed" underline="hover" className="encore-card-raised" display="block" maw="fit-content">
            {artist}
          </Anchor>
          <MiniPlayerSong snapshot={snapshot} />
        </Box>
      </Group>
    </Box>
  );
}

function MiniPlayerBar({ snapshot, concert }: { snapshot: PlayerSnapshot; concert: NowConcert }): ReactNode {
  const { t } = useTranslation('stage');
  const playing = snapshot.phase.kind === 'playing';
  return (
    <Group
      h="100%"
      px="md"
      gap="sm"
      wrap="nowrap"
      justify="space-between"
      data-testid="mini-player"
      data-concert={concert.id}
      data-phase={snapshot.phase.kind}
      data-live={snapshot.live === null ? undefined : String(snapshot.live)}
      data-paused={String(snapshot.paused)}
      data-latency={snapshot.latency === null ? undefined : snapshot.latency.toFixed(3)}
    >
      <MiniConcert snapshot={snapshot} concert={concert} />
      <Group gap="sm" wrap="nowrap" justify="center" className={classes.miniPlayback}>
        {playing ? (
          <>
            <PlayToggle snapshot={snapshot} />
            <Box className={classes.miniWide}>
              <LiveState snapshot={snapshot} />
            </Box>
            <Box visibleFrom="md">
              <ListenersText snapshot={snapshot} />
              <RenditionText snapshot={snapshot} />
            </Box>
          </>
        ) : (
          <SessionMessage snapshot={snapshot} compact />
        )}
      </Group>
      <Group gap="xs" wrap="nowrap" justify="flex-end" className={classes.miniActions}>
        <Box visibleFrom="sm">
          <VolumeControl snapshot={snapshot} width={130} />
        </Box>
        <Box visibleFrom="sm">
          <QualityMenu snapshot={snapshot} />
        </Box>
        <Box visibleFrom="sm">
          <CastControl snapshot={snapshot} />
        </Box>
        <Tooltip label={t('openStage')}>
          <ActionIcon component={Link} to={stagePath(concert.id)} variant="subtle" aria-label={t('openStage')} data-testid="mini-player-expand">
            <IconArrowsMaximize size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('close')}>
          <ActionIcon
            variant="subtle"
            onClick={() => {
              appPlayer().stop();
            }}
            aria-label={t('close')}
            data-testid="mini-player-close"
          >
            <IconX size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}
