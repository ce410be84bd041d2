import { Alert, Box, Button, Card, Collapse, Divider, Group, ScrollArea, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconLock, IconLockOpen, IconMessages, IconPin, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { ChatMessage, ChatRoom, RestrictionKind } from '../model';
import { MAX_MESSAGE, SLOW_MODE_CHOICES, isolate, messageLength, muting, sendable } from '../model';
import type { RoomView } from '../use-room';
import { useReactionSender, useRoom, useRoomActions } from '../use-room';
import type { MessageActions } from './room-message';
import { MessageBody, RoomMessageLine } from './room-message';
import { ReactionButtons, ReactionMeter } from './room-reactions';
import classes from './room.module.css';

/** A phone: the room folds away under the player. */
export const PHONE_QUERY = '(max-width: 600px)';

/** Within this many pixels of the bottom, the list follows the newest message. */
const STICK_PX = 48;

type Actions = ReturnType<typeof useRoomActions>;

function useShowError(): (error: unknown) => void {
  const { t } = useTranslation('room');
  return (error) => {
    notifications.show({ color: 'red', message: errorText(error, t) });
  };
}

function PinnedMessage({ message, moderator, onUnpin }: { message: ChatMessage; moderator: boolean; onUnpin: () => void }): ReactNode {
  const { t } = useTranslation('room');
  return (
    <Alert p="xs" variant="light" color="grape" icon={<IconPin size={16} />} title={t('pinned')} data-testid="room-pinned" data-id={message.id}>
      {/* Unpin goes under the message when both do not fit side by side (a phone). */}
      <Group gap="xs" wrap="wrap" justify="space-between" align="flex-start">
        <Box miw={0} className={classes.grow}>
          <MessageBody message={message} />
        </Box>
        {moderator ? (
          <Button size="compact-xs" variant="subtle" onClick={onUnpin} className={classes.keep} data-testid="room-unpin">
            {t('actions.unpin')}
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}

/** The messages the reader's player has reached, following the newest unless the reader
 * scrolled up to read. */
function MessageList({ view, actions, followRef }: { view: RoomView; actions: MessageActions; followRef: { current: boolean } }): ReactNode {
  const { t } = useTranslation('room');
  const viewport = useRef<HTMLDivElement>(null);
  const newest = view.visible.at(-1)?.id;
  const count = view.visible.length;
  useEffect(() => {
    const element = viewport.current;
    if (element && followRef.current) element.scrollTop = element.scrollHeight;
  }, [newest, count, followRef]);
  return (
    <ScrollArea
      className={classes.list}
      viewportRef={viewport}
      offsetScrollbars
      onScrollPositionChange={() => {
        const element = viewport.current;
        if (element) followRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_PX;
      }}
      data-testid="room-list"
      data-count={count}
    >
      {count === 0 ? (
        <Text size="sm" c="dimmed" py="md" ta="center" data-testid="room-empty">
          {view.messages.length > 0 ? t('emptyHere') : t('empty')}
        </Text>
      ) : (
        <Stack gap={0}>
          {view.visible.map((message) => (
            <RoomMessageLine key={message.id} message={message} room={view.room} actions={actions} />
          ))}
        </Stack>
      )}
    </ScrollArea>
  );
}

function RoomComposer({ view, post, onPosted }: { view: RoomView; post: Actions['post']; onPosted: () => void }): ReactNode {
  const { t } = useTranslation('room');
  const [text, setText] = useState('');
  const length = messageLength(text);
  const canPost = view.abilities.post;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!canPost || !sendable(text) || post.isPending) return;
    post.mutate(text.trim(), {
      onSuccess: () => {
        setText('');
        onPosted();
      },
    });
  };
  return (
    <form onSubmit={submit} data-testid="room-composer">
      <Stack gap={4}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            flex={1}
            miw={0}
            size="md"
            value={text}
            dir="auto"
            disabled={!canPost}
            placeholder={t('input.placeholder')}
            aria-label={t('input.label')}
            autoComplete="off"
            onChange={(event) => {
              // The server's limit counts characters, not UTF-16 units (an emoji is one).
              setText([...event.currentTarget.value].slice(0, MAX_MESSAGE).join(''));
              if (post.isError) post.reset();
            }}
            styles={{ input: { minHeight: 44 } }}
            data-testid="room-input"
          />
          <Button type="submit" h={44} className={classes.target} loading={post.isPending} disabled={!canPost || !sendable(text)} leftSection={<IconSend size={16} />} data-testid="room-send">
            {t('send')}
          </Button>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          {post.isError ? (
            <Text size="xs" c="red" role="alert" data-testid="room-error">
              {errorText(post.error, t)}
            </Text>
          ) : (
            <span />
          )}
          <Text size="xs" c={length >= MAX_MESSAGE ? 'orange' : 'dimmed'} data-testid="room-counter" data-count={length} style={{ whiteSpace: 'nowrap' }}>
            {t('input.counter', { count: length, max: MAX_MESSAGE })}
          </Text>
        </Group>
      </Stack>
    </form>
  );
}

/** Why the reader cannot post, or the room's rules for them. */
function RoomNotes({ view }: { view: RoomView }): ReactNode {
  const { t, i18n } = useTranslation('room');
  const room = view.room;
  if (!room) return null;
  const notes: ReactNode[] = [];
  if (view.abilities.reason === 'readOnly') {
    notes.push(
      <Text key="read-only" size="xs" c="dimmed" data-testid="room-read-only">
        {t('readOnly')}
      </Text>,
    );
  } else if (room.closed) {
    notes.push(
      <Text key="closed" size="xs" c="orange" data-testid="room-closed-note">
        {room.you.moderator ? t('closedModerator') : t('closed')}
      </Text>,
    );
  }
  if (view.abilities.reason === 'muted') {
    const { until } = muting(room, view.now);
    const time = until === null ? null : formatTime(until, localeOf(i18n.language));
    notes.push(
      <Text key="muted" size="xs" c="orange" data-testid="room-muted-note">
        {time === null ? t('mutedShow') : t('muted', { time })}
      </Text>,
    );
  }
  if (room.postingOpen && room.slowModeSeconds > 0 && !room.you.moderator) {
    notes.push(
      <Text key="slow" size="xs" c="dimmed" data-testid="room-slow-note">
        {t('slowMode', { seconds: room.slowModeSeconds })}
      </Text>,
    );
  }
  return notes.length > 0 ? <Stack gap={2}>{notes}</Stack> : null;
}

/** Moderators: slow mode, and closing or opening the chat. */
function RoomModeration({ room, change }: { room: ChatRoom; change: Actions['change'] }): ReactNode {
  const { t } = useTranslation('room');
  const showError = useShowError();
  const choices: number[] = [...SLOW_MODE_CHOICES];
  if (!choices.includes(room.slowModeSeconds)) choices.push(room.slowModeSeconds);
  choices.sort((a, b) => a - b);
  return (
    <Group gap="xs" align="flex-end" wrap="wrap" data-testid="room-moderation">
      <Select
        size="sm"
        w={170}
        label={t('moderation.slowMode')}
        data={choices.map((seconds) => ({ value: String(seconds), label: seconds === 0 ? t('moderation.slowOff') : t('moderation.slowSeconds', { seconds }) }))}
        value={String(room.slowModeSeconds)}
        allowDeselect={false}
        onChange={(value) => {
          if (value !== null) change.mutate({ slowModeSeconds: Number(value) }, { onError: showError });
        }}
        data-testid="room-slow-select"
      />
      <Button
        variant="light"
        color={room.closed ? 'green' : 'orange'}
        h={44}
        leftSection={room.closed ? <IconLockOpen size={16} /> : <IconLock size={16} />}
        loading={change.isPending}
        onClick={() => {
          change.mutate({ closed: !room.closed }, { onError: showError });
        }}
        data-testid="room-close-toggle"
        data-closed={String(room.closed)}
      >
        {room.closed ? t('moderation.open') : t('moderation.close')}
      </Button>
    </Group>
  );
}

/**
 * The live room of a concert: the pinned message, the messages as the reader's player
 * reaches them, the composer, the reactions and their meter; the moderators' tools for its
 * artist and staff. `compact`: the artist's live panel.
 */
export function RoomPanel({ view, compact = false }: { view: RoomView; compact?: boolean }): ReactNode {
  const { t } = useTranslation('room');
  const actions = useRoomActions(view);
  const react = useReactionSender(view.eventId);
  const showError = useShowError();
  const followRef = useRef(true);
  const [banning, setBanning] = useState<ChatMessage | null>(null);
  const room = view.room;

  const messageActions: MessageActions = {
    onDelete: (message) => {
      actions.remove.mutate(message.id, { onError: showError });
    },
    onReport: (message) => {
      actions.report.mutate(message.id, {
        onSuccess: () => notifications.show({ color: 'green', message: t('actions.reported') }),
        onError: showError,
      });
    },
    onPin: (message) => {
      actions.change.mutate({ pinnedMessageId: message?.id ?? null }, { onError: showError });
    },
    onRestrict: (message, kind: RestrictionKind) => {
      if (kind === 'ban') {
        setBanning(message);
        return;
      }
      actions.restrict.mutate(
        { accountId: message.accountId, kind },
        { onSuccess: () => notifications.show({ color: 'green', message: t(`moderation.done.${kind}`, { author: isolate(message.author) }) }), onError: showError },
      );
    },
    onLift: (message) => {
      actions.lift.mutate(message.accountId, {
        onSuccess: () => notifications.show({ color: 'green', message: t('moderation.lifted', { author: isolate(message.author) }) }),
        onError: showError,
      });
    },
  };

  let body: ReactNode;
  if (view.status === 'loading') {
    body = <Skeleton h={compact ? 240 : 360} />;
  } else if (view.status === 'forbidden') {
    body = (
      <Text size="sm" c="dimmed" data-testid="room-forbidden">
        {t('forbidden')}
      </Text>
    );
  } else if (view.status === 'error' || !room) {
    body = (
      <Text size="sm" c="red" data-testid="room-failed">
        {errorText(view.error, t)}
      </Text>
    );
  } else {
    body = (
      <>
        {room.pinned ? (
          <PinnedMessage
            message={room.pinned}
            moderator={room.you.moderator}
            onUnpin={() => {
              messageActions.onPin(null);
            }}
          />
        ) : null}
        <MessageList view={view} actions={messageActions} followRef={followRef} />
        <Group justify="space-between" gap="sm" wrap="wrap" align="center">
          <ReactionButtons
            onReact={(kind) => {
              react(kind, view.position);
            }}
            disabled={!view.abilities.react}
          />
          <Box flex={1} miw={120}>
            <ReactionMeter meter={view.meter} />
          </Box>
        </Group>
        {room.postingOpen ? (
          <RoomComposer
            view={view}
            post={actions.post}
            onPosted={() => {
              followRef.current = true;
            }}
          />
        ) : null}
        <RoomNotes view={view} />
        {room.you.moderator ? (
          <>
            <Divider label={t('moderation.title')} labelPosition="left" />
            <RoomModeration room={room} change={actions.change} />
          </>
        ) : null}
      </>
    );
  }

  return (
    <Card
      withBorder
      padding="sm"
      className={compact ? classes.compact : undefined}
      data-testid="room"
      data-status={view.status}
      data-feed={view.pushed ? 'socket' : 'polling'}
      data-posting={room ? String(view.abilities.post) : undefined}
      data-moderator={room ? String(room.you.moderator) : undefined}
    >
      <Stack gap="xs">
        <Group gap={6} wrap="nowrap">
          <IconMessages size={18} />
          <Text fw={700}>{t('title')}</Text>
        </Group>
        {view.polling ? (
          <Text size="xs" c="dimmed" data-testid="room-polling">
            {t('polling')}
          </Text>
        ) : null}
        {body}
      </Stack>
      <ConfirmDialog
        opened={banning !== null}
        onClose={() => {
          setBanning(null);
        }}
        title={t('moderation.banTitle')}
        cancelLabel={t('moderation.cancel')}
        confirmLabel={t('actions.ban')}
        busy={actions.restrict.isPending}
        onConfirm={() => {
          const message = banning;
          if (!message) return;
          actions.restrict.mutate(
            { accountId: message.accountId, kind: 'ban' },
            {
              onSuccess: () => {
                setBanning(null);
                notifications.show({ color: 'green', message: t('moderation.done.ban', { author: isolate(message.author) }) });
              },
              onError: showError,
            },
          );
        }}
        confirmTestId="room-ban-confirm"
      >
        <Text>{t('moderation.banText', { author: isolate(banning?.author ?? '') })}</Text>
      </ConfirmDialog>
    </Card>
  );
}

/**
 * The room on the stage, beside the player, for those who may read it: `readable` (a ticket
 * in its listening window), and the server agreeing. Nothing otherwise: the stage says why
 * one cannot listen. On a phone it folds under the player behind a "Chat" toggle.
 */
export function StageRoom({ eventId, readable }: { eventId: string; readable: boolean }): ReactNode {
  const { t } = useTranslation('room');
  const view = useRoom(eventId, { enabled: readable });
  const phone = useMediaQuery(PHONE_QUERY);
  const [open, setOpen] = useState(false);
  if (!readable || view.status === 'forbidden') return null;
  if (!phone) return <RoomPanel view={view} />;
  return (
    <Stack gap="xs" data-testid="room-fold">
      <Button
        variant="light"
        fullWidth
        h={44}
        leftSection={<IconMessages size={18} />}
        aria-expanded={open}
        onClick={() => {
          setOpen((was) => !was);
        }}
        data-testid="room-toggle"
      >
        {open ? t('hide') : t('toggle')}
      </Button>
      <Collapse expanded={open}>
        <RoomPanel view={view} />
      </Collapse>
    </Stack>
  );
}
