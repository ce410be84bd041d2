import { Button, Group, Text } from '@mantine/core';
import { IconArrowsMaximize, IconHeadphones } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { EncoreEvent } from '../../events/model';
import { appPlayer, usePlayerSelect } from '../player';
import type { NowConcert } from '../player-store';
import { stagePath } from './mini-player';

/** What the player keeps of a concert. */
export function toConcert(
  event: Pick<EncoreEvent, 'id' | 'title' | 'artistName' | 'image' | 'thumbnail' | 'startsAt' | 'accessUntil'> & Partial<Pick<EncoreEvent, 'projectId'>>,
): NowConcert {
  return {
    id: event.id,
    title: event.title,
    artistName: event.artistName,
    projectId: event.projectId,
    image: event.image,
    thumbnail: event.thumbnail,
    startsAt: event.startsAt,
    accessUntil: event.accessUntil,
  };
}

/**
 * Listen on a concert's card or page: hands the concert to the app's player (the bar at the
 * bottom), or, when it is already there, opens the stage view.
 */
export function ListenButton({ event, fullWidth = false }: { event: Parameters<typeof toConcert>[0]; fullWidth?: boolean }): ReactNode {
  const { t } = useTranslation(['stage', 'player']);
  const inPlayer = usePlayerSelect((snapshot) => snapshot.concert?.id === event.id);
  if (inPlayer) {
    return (
      // Wraps on a narrow card rather than cutting the button's words.
      <Group gap="xs" data-testid="player-in-bar">
        <Text size="sm" c="dimmed">
          {t('inPlayer')}
        </Text>
        <Button component={Link} to={stagePath(event.id)} size="xs" variant="light" leftSection={<IconArrowsMaximize size={14} />} data-testid="player-open-stage">
          {t('openStage')}
        </Button>
      </Group>
    );
  }
  return (
    <Button
      leftSection={<IconHeadphones size={16} />}
      fullWidth={fullWidth}
      onClick={() => {
        appPlayer().play(toConcert(event));
      }}
      data-testid="player-listen"
    >
      {t('player:listen')}
    </Button>
  );
}
