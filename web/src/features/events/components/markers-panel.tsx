import { ActionIcon, Badge, Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import type { TextInputProps } from '@mantine/core';
import { IconMusic, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../i18n/languages';
import { errorText } from '../../../lib/errors';
import { formatClock } from '../../player/model';
import type { LiveStatus, Marker } from '../model';
import { useMarkerActions } from '../mutations';
import { eventKeys, markersQueryOptions } from '../queries';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** The server's limit on a title or an artist (docs/api-contract.md, "Song titles: markers"). */
const MAX_TEXT = 255;

/** A marker's place in the show, in the reader's digits, kept left to right. */
const clock = (atMs: number, locale: string): string => `\u2066${formatClock(atMs / 1000, locale)}\u2069`;
const orNull = (text: string): string | null => (text.trim() === '' ? null : text);

/** A field of the marker form: a line in the writer's direction, up to the server's limit. */
function MarkerTextInput({ onValue, ...props }: TextInputProps & { onValue: (value: string) => void; 'data-testid': string }): ReactNode {
  return (
    <TextInput
      size="xs"
      maxLength={MAX_TEXT}
      dir="auto"
      {...props}
      onChange={(e) => {
        onValue(e.currentTarget.value);
      }}
    />
  );
}

function MarkerForm({
  initial,
  submitLabel,
  pending,
  disabled,
  onSubmit,
  onCancel,
  testId,
}: {
  initial: { title: string; artist: string };
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  onSubmit: (title: string, artist: string) => Promise<unknown>;
  onCancel?: () => void;
  testId: string;
}): ReactNode {
  const { t } = useTranslation('events');
  const [title, setTitle] = useState(initial.title);
  const [artist, setArtist] = useState(initial.artist);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (title.trim() === '') return;
    onSubmit(title, artist).then(
      () => {
        if (!onCancel) {
          setTitle('');
          setArtist('');
        }
      },
      () => undefined,
    );
  };
  return (
    <form onSubmit={submit} data-testid={testId}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <MarkerTextInput
          flex={2}
          miw={140}
          label={t('manage.markers.songTitle')}
          value={title}
          required
          onValue={setTitle}
          data-testid="marker-title-input"
        />
        <MarkerTextInput flex={1} miw={110} label={t('manage.markers.artist')} value={artist} onValue={setArtist} data-testid="marker-artist-input" />
        <Button size="xs" type="submit" loading={pending} disabled={disabled === true || title.trim() === ''} data-testid="marker-submit">
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button size="xs" variant="default" onClick={onCancel}>
            {t('form.cancel')}
          </Button>
        ) : null}
      </Group>
    </form>
  );
}

/**
 * The artist's song titles in the live panel: what plays at the live edge now (pushed by the
 * socket's `live_status`), and the show's markers (from the encoder or typed here) with
 * add, edit and delete.
 */
export function MarkersPanel({ eventId, status }: { eventId: string; status: LiveStatus | undefined }): ReactNode {
  const { t, i18n } = useTranslation('events');
  const locale = localeOf(i18n.language);
  const queryClient = useQueryClient();
  const markers = useQuery(markersQueryOptions(eventId));
  const { add, edit, remove } = useMarkerActions(eventId);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Marker | null>(null);
  const nowPlaying = status?.nowPlaying ?? null;

  // A new title from the encoder shows first as the status's `nowPlaying`: the list follows.
  const playingKey = nowPlaying ? `${nowPlaying.markerId}\u0000${nowPlaying.title}\u0000${nowPlaying.artist ?? ''}` : null;
  const seenKey = useRef(playingKey);
  useEffect(() => {
    if (seenKey.current === playingKey) return;
    seenKey.current = playingKey;
    void queryClient.invalidateQueries({ queryKey: eventKeys.markers(eventId) });
  }, [playingKey, eventId, queryClient]);

  const recorded = (status?.recordedSeconds ?? 0) > 0;
  return (
    <Stack gap="xs" data-testid="markers-panel">
      <Text fw={600}>{t('manage.markers.title')}</Text>
      <Group gap="xs" wrap="nowrap" data-testid="live-now-playing" data-marker={nowPlaying?.markerId}>
        <IconMusic size={16} style={{ flexShrink: 0 }} />
        {nowPlaying ? (
          <Text size="sm">
            <Text span size="sm" c="dimmed">
              {t('manage.markers.nowPlaying')}
            </Text>{' '}
            <Text span size="sm" fw={600} dir="auto" data-testid="live-now-playing-title">
              {nowPlaying.title}
            </Text>
            {nowPlaying.artist ? (
              <>
                {' · '}
                <Text span size="sm" dir="auto">
                  {nowPlaying.artist}
                </Text>
              </>
            ) : null}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('manage.markers.nothingPlaying')}
          </Text>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {t('manage.markers.hint')}
      </Text>
      {status && !status.ended ? (
        <MarkerForm
          initial={{ title: '', artist: '' }}
          submitLabel={t('manage.markers.add')}
          pending={add.isPending}
          disabled={!recorded}
          onSubmit={(title, artist) => add.mutateAsync({ title, artist: orNull(artist) })}
          testId="marker-add"
        />
      ) : null}
      {markers.isPending ? (
        <Skeleton h={32} />
      ) : markers.isError ? (
        <Text c="red" size="sm">
          {errorText(markers.error, t)}
        </Text>
      ) : markers.data.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="markers-empty">
          {t('manage.markers.empty')}
        </Text>
      ) : (
        <Stack gap={4} data-testid="markers">
          {markers.data.map((marker) =>
            editing === marker.id ? (
              <MarkerForm
                key={marker.id}
                initial={{ title: marker.title, artist: marker.artist ?? '' }}
                submitLabel={t('manage.markers.save')}
                pending={edit.isPending}
                onSubmit={(title, artist) =>
                  edit.mutateAsync({ markerId: marker.id, changes: { title, artist: orNull(artist) } }).then(() => {
                    setEditing(null);
                  })
                }
                onCancel={() => {
                  setEditing(null);
                }}
                testId="marker-edit"
              />
            ) : (
              <Group key={marker.id} gap="xs" wrap="nowrap" justify="space-between" data-testid="marker" data-marker={marker.id} data-current={marker.id === nowPlaying?.markerId ? 'true' : undefined}>
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Text size="xs" c="dimmed" ff="monospace" style={{ flexShrink: 0 }}>
                    {clock(marker.atMs, locale)}
                  </Text>
                  <Text size="sm" fw={marker.id === nowPlaying?.markerId ? 700 : undefined} dir="auto" truncate data-testid="marker-title">
                    {marker.title}
                  </Text>
                  {marker.artist ? (
                    <Text size="xs" c="dimmed" dir="auto" truncate data-testid="marker-artist">
                      {marker.artist}
                    </Text>
                  ) : null}
                </Group>
                <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Badge size="xs" variant="light" color={marker.source === 'encoder' ? 'blue' : 'grape'}>
                    {t(`manage.markers.source.${marker.source}`)}
                  </Badge>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    aria-label={t('manage.markers.edit')}
                    onClick={() => {
                      setEditing(marker.id);
                    }}
                    data-testid="marker-edit-start"
                  >
                    <IconPencil size={14} />
                  </ActionIcon>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    aria-label={t('manage.markers.delete')}
                    onClick={() => {
                      setDeleting(marker);
                    }}
                    data-testid="marker-delete"
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Group>
              </Group>
            ),
          )}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => {
          setDeleting(null);
        }}
        title={t('manage.markers.deleteTitle')}
        cancelLabel={t('form.cancel')}
        confirmLabel={t('manage.markers.delete')}
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
            },
          });
        }}
        confirmTestId="marker-delete-confirm"
      >
        <Text dir="auto">{t('manage.markers.deleteText', { title: deleting?.title ?? '' })}</Text>
      </ConfirmDialog>
    </Stack>
  );
}
