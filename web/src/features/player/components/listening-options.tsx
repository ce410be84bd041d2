/** The listener's quality menu, the rendition playing, and casting: the mini-player and the
 * stage view show them. */
import { ActionIcon, Menu, Text, Tooltip } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconCast, IconCastOff, IconCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useLocale } from '../../events/components/event-parts';
import { formatCount, qualityChoices } from '../model';
import type { Quality, Rendition } from '../model';
import { appPlayer } from '../player';
import type { PlayerSnapshot } from '../player-store';
import { playsFlac } from '../stream-engine';

/** "Standard · AAC 128 kbit/s", "Lossless · FLAC 48 kHz", in the reader's words and digits. */
export function renditionText(rendition: Rendition, t: TFunction<'player'>, locale: string): string {
  const name = t(`quality.${rendition.name}`);
  const format =
    rendition.codec === 'flac'
      ? rendition.sampleRate === null
        ? t('format.flac')
        : t('format.flacRate', { khz: formatCount(rendition.sampleRate / 1000, locale) })
      : rendition.kbps === null
        ? t('format.aac')
        : t('format.aacRate', { kbps: formatCount(rendition.kbps, locale) });
  return t('format.rendition', { name, format });
}

/** The rendition playing, as text (nothing until hls.js has played a part of one). */
export function RenditionText({ snapshot }: { snapshot: PlayerSnapshot }): ReactNode {
  const { t } = useTranslation('player');
  const locale = useLocale();
  const { rendition } = snapshot;
  if (!rendition || snapshot.phase.kind !== 'playing') return null;
  return (
    <Text size="xs" c="dimmed" lineClamp={1} data-testid="player-rendition" data-rendition={rendition.name}>
      {renditionText(rendition, t, locale)}
    </Text>
  );
}

/** The quality menu: Auto and each rendition the show has that this browser plays. Shown
 * once hls.js has read the multivariant playlist (Safari's native HLS chooses itself). */
export function QualityMenu({ snapshot }: { snapshot: PlayerSnapshot }): ReactNode {
  const { t } = useTranslation('player');
  const locale = useLocale();
  const [opened, setOpened] = useState(false);
  if (snapshot.phase.kind !== 'playing' || snapshot.renditions.length === 0) return null;
  const choices = qualityChoices(snapshot.renditions, playsFlac());
  const choose = (quality: Quality): void => {
    appPlayer().setQuality(quality);
  };
  return (
    <Menu position="top-end" withinPortal shadow="md" width={240} opened={opened} onChange={setOpened}>
      <Menu.Target>
        {/* The label is not shown over the open menu. */}
        <Tooltip label={t('qualityMenu')} disabled={opened}>
          <ActionIcon variant="subtle" aria-label={t('qualityMenu')} data-testid="quality-menu" data-quality={snapshot.quality}>
            <IconAdjustmentsHorizontal size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown data-testid="quality-choices">
        <Menu.Label>{snapshot.rendition ? renditionText(snapshot.rendition, t, locale) : t('qualityMenu')}</Menu.Label>
        {choices.map((quality) => {
          const chosen = snapshot.quality === quality || (quality === 'auto' && !choices.includes(snapshot.quality));
          return (
            <Menu.Item
              key={quality}
              role="menuitemradio"
              aria-checked={chosen}
              leftSection={<IconCheck size={14} style={{ visibility: chosen ? 'visible' : 'hidden' }} />}
              onClick={() => {
                choose(quality);
              }}
              data-testid={`quality-${quality}`}
            >
              {t(`quality.${quality}`)}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Remote Playback (Chromium, Safari) and AirPlay (Safari) as the element offers them. */
interface CastingElement extends HTMLAudioElement {
  webkitShowPlaybackTargetPicker?: () => void;
}

type CastState = 'available' | 'unavailable';

/** Whether a cast target can take the player's audio now: Remote Playback's availability,
 * or AirPlay's (Safari, native HLS). Unavailable where neither API is there or the browser
 * cannot cast this source (a Media Source, for most). */
function useCastState(audio: CastingElement): CastState {
  const [state, setState] = useState<CastState>('unavailable');
  useEffect(() => {
    let stopped = false;
    let watchId: number | null = null;
    const onAirPlay = (event: Event): void => {
      setState((event as Event & { availability?: string }).availability === 'available' ? 'available' : 'unavailable');
    };
    if (audio.webkitShowPlaybackTargetPicker) {
      audio.addEventListener('webkitplaybacktargetavailabilitychanged', onAirPlay);
    } else if ('remote' in audio) {
      audio.remote.watchAvailability((available) => {
        if (!stopped) setState(available ? 'available' : 'unavailable');
      }).then(
        (id) => {
          watchId = id;
        },
        // NotSupportedError: nothing can take this source here.
        () => undefined,
      );
    }
    return () => {
      stopped = true;
      audio.removeEventListener('webkitplaybacktargetavailabilitychanged', onAirPlay);
      if (watchId !== null) audio.remote.cancelWatchAvailability(watchId).catch(() => undefined);
    };
  }, [audio]);
  return state;
}

/** A cast button where the browser can send the player to a speaker or TV; else a quiet
 * icon whose label says casting is not possible here. */
export function CastControl({ snapshot, withHint = false }: { snapshot: PlayerSnapshot; withHint?: boolean }): ReactNode {
  const { t } = useTranslation('player');
  const audio = appPlayer().audio() as CastingElement;
  const state = useCastState(audio);
  if (snapshot.phase.kind !== 'playing') return null;
  if (state === 'available') {
    const cast = (): void => {
      if (audio.webkitShowPlaybackTargetPicker) audio.webkitShowPlaybackTargetPicker();
      else audio.remote.prompt().catch(() => undefined);
    };
    return (
      <Tooltip label={t('cast')}>
        <ActionIcon variant="subtle" onClick={cast} aria-label={t('cast')} data-testid="cast-button">
          <IconCast size={18} />
        </ActionIcon>
      </Tooltip>
    );
  }
  if (withHint) {
    return (
      <Text size="xs" c="dimmed" ms="sm" data-testid="cast-unavailable">
        {t('castUnavailable')}
      </Text>
    );
  }
  return (
    <Tooltip label={t('castUnavailable')} events={{ hover: true, focus: true, touch: true }}>
      <ActionIcon variant="transparent" c="dimmed" aria-label={t('castUnavailable')} aria-disabled data-testid="cast-unavailable">
        <IconCastOff size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
