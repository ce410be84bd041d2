import { ActionIcon, Anchor, Badge, Box, Group, Menu, Text } from '@mantine/core';
import { IconBan, IconClock, IconDots, IconFlag, IconHeartHandshake, IconPin, IconPinnedOff, IconTrash, IconUserCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { formatPrice } from '../../cart/model';
import type { ChatMessage, ChatRoom, RestrictionKind } from '../model';
import { RESTRICTION_KINDS, canDelete, canReport, linkify } from '../model';
import classes from './room.module.css';

/** A message's text: plain text and links, in its own isolate (`dir="auto"`) so that Persian
 * and English side by side never reorder the page around it. Never HTML. */
export function MessageText({ text }: { text: string }): ReactNode {
  return (
    <span dir="auto" data-testid="room-message-text">
      {linkify(text).map((part, index) =>
        part.kind === 'link' ? (
          <Anchor key={index} href={part.href} target="_blank" rel="noopener nofollow ugc" dir="ltr" data-testid="room-message-link">
            {part.text}
          </Anchor>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}

export function AuthorBadge({ badge }: { badge: ChatMessage['badge'] }): ReactNode {
  const { t } = useTranslation('room');
  if (!badge) return null;
  return (
    <Badge size="xs" variant="light" color={badge === 'artist' ? 'grape' : 'blue'} data-testid="room-message-badge" data-badge={badge}>
      {t(`badge.${badge}`)}
    </Badge>
  );
}

/** A paid tip's amount, as the room says it ("tipped €5.00"). */
function TipBadge({ tip }: { tip: NonNullable<ChatMessage['tip']> }): ReactNode {
  const { t, i18n } = useTranslation('room');
  return (
    <Badge size="sm" color="grape" leftSection={<IconHeartHandshake size={12} />} data-testid="room-message-tip">
      {t('tipped', { amount: formatPrice(tip.amount, tip.currency, localeOf(i18n.language)) })}
    </Badge>
  );
}

/** The author's name and what stands beside it (a badge, a tip's amount), kept together
 * inline so that the text flows on after them. */
function AuthorLine({ author, children }: { author: string; children: ReactNode }): ReactNode {
  return (
    <Group gap={6} wrap="wrap" component="span" style={{ display: 'inline-flex', verticalAlign: 'baseline' }}>
      <Text span fw={700} size="sm" data-testid="room-message-author">
        <bdi>{author}</bdi>
      </Text>
      {children}
    </Group>
  );
}

/** Author, badge and text on one line; a paid tip highlighted, with its amount. */
export function MessageBody({ message }: { message: ChatMessage }): ReactNode {
  if (message.kind === 'tip' && message.tip) {
    return (
      <Text size="sm" component="div" className={classes.tip} data-testid="room-tip" data-kind="tip">
        <AuthorLine author={message.author}>
          <TipBadge tip={message.tip} />
        </AuthorLine>{' '}
        {message.text ? <MessageText text={message.text} /> : null}
      </Text>
    );
  }
  return (
    <Text size="sm" component="div">
      <AuthorLine author={message.author}>
        <AuthorBadge badge={message.badge} />
      </AuthorLine>{' '}
      <MessageText text={message.text} />
    </Text>
  );
}

export interface MessageActions {
  onDelete: (message: ChatMessage) => void;
  onReport: (message: ChatMessage) => void;
  onPin: (message: ChatMessage | null) => void;
  onRestrict: (message: ChatMessage, kind: RestrictionKind) => void;
  onLift: (message: ChatMessage) => void;
}

const RESTRICTION_ICONS: Record<RestrictionKind, ReactNode> = {
  timeout_5m: <IconClock size={16} />,
  timeout_1h: <IconClock size={16} />,
  timeout_show: <IconClock size={16} />,
  ban: <IconBan size={16} />,
};

/** One message with what the reader may do to it: report someone else's, delete their own;
 * moderators delete, pin, time out and ban (never another moderator: badges mark them). */
export function RoomMessageLine({ message, room, actions }: { message: ChatMessage; room: ChatRoom | null; actions: MessageActions }): ReactNode {
  const { t } = useTranslation('room');
  const own = room?.you.accountId === message.accountId;
  const moderator = room?.you.moderator ?? false;
  const deletable = canDelete(room, message);
  const reportable = canReport(room, message);
  const restrictable = moderator && !own && message.badge === null;
  const pinned = room?.pinned?.id === message.id;
  const any = deletable || reportable || moderator;
  return (
    <Group
      gap={4}
      wrap="nowrap"
      align="flex-start"
      justify="space-between"
      className={classes.message}
      data-testid="room-message"
      data-id={message.id}
      data-own={String(own)}
      data-media-time={message.mediaTime}
    >
      <Box miw={0} flex={1}>
        <MessageBody message={message} />
      </Box>
      {any ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" className={classes.menuTarget} aria-label={t('actions.menu', { author: message.author })} data-testid="room-message-menu">
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {reportable ? (
              <Menu.Item className={classes.menuItem} leftSection={<IconFlag size={16} />} onClick={() => { actions.onReport(message); }} data-testid="room-action-report">
                {t('actions.report')}
              </Menu.Item>
            ) : null}
            {deletable ? (
              <Menu.Item className={classes.menuItem} color="red" leftSection={<IconTrash size={16} />} onClick={() => { actions.onDelete(message); }} data-testid="room-action-delete">
                {t('actions.delete')}
              </Menu.Item>
            ) : null}
            {moderator ? (
              <>
                <Menu.Divider />
                <Menu.Label>{t('moderation.title')}</Menu.Label>
                <Menu.Item
                  className={classes.menuItem}
                  leftSection={pinned ? <IconPinnedOff size={16} /> : <IconPin size={16} />}
                  onClick={() => { actions.onPin(pinned ? null : message); }}
                  data-testid={pinned ? 'room-action-unpin' : 'room-action-pin'}
                >
                  {pinned ? t('actions.unpin') : t('actions.pin')}
                </Menu.Item>
                {restrictable
                  ? RESTRICTION_KINDS.map((kind) => (
                      <Menu.Item
                        key={kind}
                        className={classes.menuItem}
                        color={kind === 'ban' ? 'red' : undefined}
                        leftSection={RESTRICTION_ICONS[kind]}
                        onClick={() => { actions.onRestrict(message, kind); }}
                        data-testid={`room-action-${kind}`}
                      >
                        {t(`actions.${kind}`)}
                      </Menu.Item>
                    ))
                  : null}
                {restrictable ? (
                  <Menu.Item className={classes.menuItem} leftSection={<IconUserCheck size={16} />} onClick={() => { actions.onLift(message); }} data-testid="room-action-lift">
                    {t('actions.lift')}
                  </Menu.Item>
                ) : null}
              </>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      ) : null}
    </Group>
  );
}
