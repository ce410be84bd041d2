import { Box, Button, Card, Grid, Group, Image, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMusic, IconTicket } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { eventQueryOptions } from '../../events/queries';
import { canListenNow, concertPath, replayable } from '../../events/model';
import { DoorsLobby } from '../../events/components/concert-state';
import { ArtistLink, StateBadge } from '../../events/components/event-parts';
import { appPlayer, usePlayer } from '../player';
import type { NowConcert, PlayerSnapshot } from '../player-store';
import { DownloadSet } from './download-set';
import { ListenButton } from './listen-button';
import { CastControl, QualityMenu, RenditionText } from './listening-options';
import { ChapterList, ListenersText, LiveState, NowPlaying, PlayToggle, ReplayUntil, SeekBar, SessionMessage, VolumeControl, playingChapter } from './player-parts';
import { ShareButton } from '../../../components/share-button';
import { StageRoom } from '../../room/components/room-panel';
import { TipButton } from '../../tips/components/tip-button';

/** A key press that belongs to what has the focus (typing, a button's own Space, a slider); a
 * focused link has no use for Space. */
function ownedByTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, button, [role="slider"], [role="button"], [contenteditable="true"]') !== null;
}

/** Space plays and pauses while the stage view is shown (not while typing). */
function useSpaceToggles(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.code !== 'Space' && event.key !== ' ') return;
      if (event.repeat || event.altKey || event.ctrlKey || event.metaKey || ownedByTarget(event.target)) return;
      event.preventDefault();
      appPlayer().toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, []);
}

function StagePicture({ concert }: { concert: Pick<NowConcert, 'image' | 'thumbnail' | 'title'> }): ReactNode {
  const src = concert.image ?? concert.thumbnail;
  if (!src) {
    return (
      <ThemeIcon variant="light" w="100%" h={360} radius="md" style={{ display: 'flex' }}>
        <IconMusic size={96} />
      </ThemeIcon>
    );
  }
  return <Image src={src} alt={concert.title} radius="md" h={360} fit="cover" data-testid="stage-picture" />;
}

/** The full player of the concert in the player: its picture, the controls, its songs. */
function StageControls({ snapshot, concert }: { snapshot: PlayerSnapshot; concert: NowConcert }): ReactNode {
  const playing = playingChapter(snapshot);
  const inShow = snapshot.phase.kind === 'playing';
  return (
    <Stack gap="md">
      {inShow ? (
        <>
          <Group gap="sm" wrap="nowrap">
            <PlayToggle snapshot={snapshot} size="xl" />
            <LiveState snapshot={snapshot} />
          </Group>
          <SeekBar snapshot={snapshot} />
          <Group justify="space-between" wrap="nowrap">
            <Box>
              <ListenersText snapshot={snapshot} />
            </Box>
            <VolumeControl snapshot={snapshot} width={200} />
          </Group>
          <Group gap="xs" wrap="wrap" data-testid="stage-listening-options">
            <QualityMenu snapshot={snapshot} />
            <RenditionText snapshot={snapshot} />
            <CastControl snapshot={snapshot} withHint />
          </Group>
          {playing ? <NowPlaying chapter={playing} /> : null}
          {snapshot.live === false ? <ReplayUntil accessUntil={concert.accessUntil} /> : null}
        </>
      ) : (
        <SessionMessage snapshot={snapshot} />
      )}
      {snapshot.chapters.length > 0 ? <ChapterList snapshot={snapshot} /> : null}
    </Stack>
  );
}

/**
 * The stage view (`/stage/{concertId}`): the concert's picture with the full player and the
 * live room. A link
 * to it opens the concert's page with its Listen button when something else (or nothing)
 * plays; Space plays and pauses.
 */
export function StagePage(): ReactNode {
  const { t } = useTranslation(['stage', 'events']);
  const { concertId = '' } = useParams();
  const snapshot = usePlayer();
  const event = useQuery(eventQueryOptions(concertId));
  useSpaceToggles();
  const mine = snapshot.concert?.id === concertId ? snapshot.concert : null;
  const shown = mine ?? event.data ?? null;

  if (!shown) {
    if (event.isError) return <Text c="red">{t('events:detailsFailed')}</Text>;
    return <Skeleton h={420} />;
  }
  return (
    <Grid gap="xl" data-testid="stage" data-concert={concertId} data-phase={mine ? snapshot.phase.kind : 'idle'}>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <StagePicture concert={shown} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          <Card withBorder padding="lg">
            <Stack gap="md">
              <Box>
                {/* Not listening here: what the concert is doing, as on its page ("Live now"). */}
                {!mine && event.data ? (
                  <Box mb={6}>
                    <StateBadge state={event.data.state} />
                  </Box>
                ) : null}
                <Title order={2} dir="auto" data-testid="stage-title">
                  {shown.title}
                </Title>
                {event.data ? (
                  <ArtistLink event={{ projectId: event.data.projectId, artistName: shown.artistName }} size="lg" c="dimmed" testId="stage-artist" />
                ) : (
                  <Text size="lg" c="dimmed" dir="auto" data-testid="stage-artist">
                    {shown.artistName}
                  </Text>
                )}
              </Box>
              {/* The concert's public page is what a listener shares from the stage. */}
              <Group>
                <ShareButton title={shown.title} path={concertPath(concertId)} />
                {/* A holder in the listening window tips the artist. */}
                {event.data && canListenNow(event.data) ? <TipButton eventId={concertId} /> : null}
              </Group>
              {mine ? (
                <StageControls snapshot={snapshot} concert={mine} />
              ) : event.data && canListenNow(event.data) ? (
                <Stack gap="xs">
                  <ListenButton event={event.data} />
                  {event.data.state.phase === 'replay' ? <ReplayUntil accessUntil={event.data.state.replayUntil} /> : null}
                </Stack>
              ) : event.data?.state.phase === 'upcoming' ? (
                <DoorsLobby event={event.data} />
              ) : (
                <Stack gap="xs" align="flex-start">
                  <Text c="dimmed" data-testid="stage-not-listenable">
                    {t('notListenable')}
                  </Text>
                  {event.data && !event.data.owned && !event.data.notOnSale ? (
                    <Button component={Link} to={concertPath(concertId)} variant="light" leftSection={<IconTicket size={16} />} data-testid="stage-get-ticket">
                      {t('getTicket')}
                    </Button>
                  ) : null}
                </Stack>
              )}
            </Stack>
          </Card>
          {/* After the show, the holder keeps the set: the recording as a file with its songs. */}
          {event.data && canListenNow(event.data) && replayable(event.data) && event.data.status === 'ended' ? (
            <DownloadSet eventId={concertId} playlistUrl={mine ? snapshot.playlistUrl : null} />
          ) : null}
          {/* The live room beside the player (under it on a phone, folded behind "Chat"). */}
          <StageRoom eventId={concertId} readable={!!event.data && canListenNow(event.data)} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
