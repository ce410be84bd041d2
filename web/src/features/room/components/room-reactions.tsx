import { Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/numbers';
import type { ReactionCounts, ReactionKind } from '../model';
import { REACTION_KINDS } from '../model';
import classes from './room.module.css';

const EMOJI: Record<ReactionKind, string> = { applause: '👏', heart: '❤️', fire: '🔥' };

/** The meter is full at this many reactions in its window. */
const METER_FULL = 40;

/** The room's reactions of the last seconds of the show, rising as they come. */
export function ReactionMeter({ meter }: { meter: ReactionCounts & { total: number } }): ReactNode {
  const { t, i18n } = useTranslation('room');
  const label = t('meter.label', { count: meter.total });
  return (
    <Stack gap={4} data-testid="room-meter" data-total={meter.total} data-applause={meter.applause} data-heart={meter.heart} data-fire={meter.fire}>
      <Progress value={Math.min(100, (meter.total * 100) / METER_FULL)} color="pink" size="sm" aria-label={label} transitionDuration={200} />
      <Group gap="sm" wrap="nowrap" aria-label={label}>
        {REACTION_KINDS.map((kind) => (
          <Text key={kind} size="xs" c="dimmed" data-testid={`room-meter-${kind}`}>
            {EMOJI[kind]} {formatNumber(meter[kind], i18n.language)}
          </Text>
        ))}
      </Group>
    </Stack>
  );
}

/** Applause, heart and fire: each click counts; they are sent together (use-room.ts). */
export function ReactionButtons({ onReact, disabled }: { onReact: (kind: ReactionKind) => void; disabled: boolean }): ReactNode {
  const { t } = useTranslation('room');
  return (
    <Group gap="xs" wrap="nowrap">
      {REACTION_KINDS.map((kind) => (
        <Tooltip key={kind} label={t(`reactions.${kind}`)}>
          <Button
            variant="light"
            color="gray"
            px="xs"
            className={classes.target}
            disabled={disabled}
            aria-label={t(`reactions.${kind}`)}
            onClick={() => {
              onReact(kind);
            }}
            data-testid={`room-react-${kind}`}
          >
            <span aria-hidden style={{ fontSize: 20, lineHeight: 1 }}>
              {EMOJI[kind]}
            </span>
          </Button>
        </Tooltip>
      ))}
    </Group>
  );
}
