import { Box, Collapse, Group, ScrollArea, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { formatWhen } from '../../events/components/event-parts';
import { clockTime } from '../../events/model';
import type { ChatReport, ModerationEntry } from '../model';
import { authorNames, isolate, moderationLine } from '../model';
import { moderationLogQueryOptions } from '../queries';
import type { RoomView } from '../use-room';
import classes from './room.module.css';

/** The time of the day for today's lines, the date too for older ones. */
function when(iso: string, now: number, locale: string): string {
  const at = new Date(iso);
  return at.toDateString() === new Date(now).toDateString() ? clockTime(iso, locale) : formatWhen(iso, locale);
}

function LogLine({ entry, names, view }: { entry: ModerationEntry; names: ReadonlyMap<string, string>; view: RoomView }): ReactNode {
  const { t, i18n } = useTranslation('room');
  const line = moderationLine(entry, view.messages);
  const named = entry.accountName ?? (line.accountId === null ? undefined : names.get(line.accountId));
  const target = isolate(named ?? t('log.someone'));
  return (
    <Box className={classes.logEntry} data-testid="room-log-entry" data-action={entry.action} data-id={entry.id}>
      <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
        <Text size="sm" miw={0}>
          <Text span fw={700} size="sm" data-testid="room-log-actor">
            <bdi>{entry.actorName}</bdi>
          </Text>{' '}
          <span data-testid="room-log-what">{t(`log.action.${line.key}`, { ...line.values, target })}</span>
        </Text>
        <Text size="xs" c="dimmed" component="time" dateTime={entry.at} className={classes.logTime} data-testid="room-log-when">
          {when(entry.at, view.now, localeOf(i18n.language))}
        </Text>
      </Group>
      {line.quote !== null ? (
        <Text size="xs" c="dimmed" lineClamp={2} data-testid="room-log-quote">
          <bdi dir="auto">{line.quote}</bdi>
        </Text>
      ) : null}
    </Box>
  );
}

/** The log's lines, fetched while it is open (again after each moderation action). */
function LogEntries({ view, reports, open }: { view: RoomView; reports: readonly ChatReport[]; open: boolean }): ReactNode {
  const { t } = useTranslation('room');
  const log = useQuery({ ...moderationLogQueryOptions(view.eventId), enabled: open });
  if (log.isPending) return <Skeleton h={64} data-testid="room-log-loading" />;
  if (log.isError) {
    return (
      <Text size="sm" c="red" data-testid="room-log-failed">
        {errorText(log.error, t)}
      </Text>
    );
  }
  if (log.data.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="room-log-empty">
        {t('log.empty')}
      </Text>
    );
  }
  const names = authorNames([...reports.map((report) => report.message), ...view.messages]);
  return (
    <ScrollArea.Autosize mah={280} offsetScrollbars data-testid="room-log-list" data-count={log.data.length}>
      <Stack gap={0}>
        {log.data.map((entry) => (
          <LogLine key={entry.id} entry={entry} names={names} view={view} />
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}

/**
 * The room's moderation log for its moderators: who did what to whom, and when, newest
 * first. Folded at first; it is fetched once opened, and again after each moderation action
 * (here, or another moderator's deletion or room change on the socket).
 */
export function RoomModerationLog({ view, reports = [] }: { view: RoomView; reports?: readonly ChatReport[] }): ReactNode {
  const { t } = useTranslation('room');
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const id = useId();
  if (!view.room?.you.moderator) return null;
  return (
    <Stack gap="xs" data-testid="room-log" data-open={String(open)}>
      <UnstyledButton
        className={classes.fold}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          setOpen((was) => !was);
          setOpened(true);
        }}
        data-testid="room-log-toggle"
      >
        <Group gap="xs" wrap="nowrap">
          <IconHistory size={18} aria-hidden />
          <Text fw={600} flex={1}>
            {t('log.title')}
          </Text>
          <IconChevronDown size={18} aria-hidden className={classes.chevron} data-open={String(open)} />
        </Group>
      </UnstyledButton>
      <Collapse expanded={open} id={id}>
        {opened ? <LogEntries view={view} reports={reports} open={open} /> : null}
      </Collapse>
    </Stack>
  );
}
