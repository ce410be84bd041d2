import { ActionIcon, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/errors';
import { ConfirmDialog } from './confirm-dialog';

/** The test ids of a managed list's parts (the browser tests find them by these). */
export interface ManagedListIds {
  panel: string;
  add: string;
  list: string;
  row: string;
  edit: string;
  remove: string;
  confirm: string;
  none?: string;
}

/** The texts of a managed list, in the caller's words. */
export interface ManagedListTexts {
  /** The heading's line under the title (a count), if any. */
  subtitle?: ReactNode;
  title: ReactNode;
  hint: ReactNode;
  add: string;
  /** Shown in place of the list when it is empty; without it an empty list shows nothing. */
  none?: ReactNode;
  cancel: string;
  deleteTitle: ReactNode;
  deleteConfirm: ReactNode;
}

interface ManagedListProps<T extends { id: string }> {
  ids: ManagedListIds;
  texts: ManagedListTexts;
  items: UseQueryResult<T[]>;
  /** Whether another may be added (a list may be full). */
  canAdd?: boolean;
  /** The list's changes: as a form opens or closes, `add`'s and `edit`'s last errors are
   * forgotten, and as the bin is pressed, `remove`'s; `remove` deletes an item by its `id`. */
  actions: {
    add: { reset: () => void };
    edit: { reset: () => void };
    remove: { mutate: (id: string, options: { onSettled: () => void }) => void; reset: () => void; isPending: boolean };
  };
  /** The form for a new item (`null`) or for changing `item`; `close` shuts it. */
  form: (item: T | null, close: () => void) => ReactNode;
  /** A row's contents, beside its pencil and bin. */
  row: (item: T) => ReactNode;
  /** The row card's own `data-*` attributes (the browser tests read them). */
  rowData?: (item: T) => Record<`data-${string}`, string | undefined>;
  /** The labels of a row's pencil and bin; a row without a delete label cannot be deleted. */
  editLabel: (item: T) => string;
  deleteLabel: (item: T) => string | null;
  /** What deleting `item` means, and the last refusal. */
  deleteText: (item: T | null) => ReactNode;
}

/**
 * A drawer's list of things its manager keeps (a concert's tiers, the promo codes): the
 * heading with an add button, a hint, the rows each with a pencil and a bin, the form opened
 * in place of the row it changes (or above the list for a new one), and the confirmation
 * before a deletion. The caller gives the texts, the forms and what a row shows.
 */
export function ManagedList<T extends { id: string }>(props: ManagedListProps<T>): ReactNode {
  const { t } = useTranslation();
  const { ids, texts, items } = props;
  const { add, edit, remove } = props.actions;
  /** The item whose form is open ('new' for a new one), or none. */
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const open = (which: string | null): void => {
    add.reset();
    edit.reset();
    setEditing(which);
  };
  const close = (): void => {
    open(null);
  };
  return (
    <Stack gap="sm" data-testid={ids.panel}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0}>
          <Text fw={600}>{texts.title}</Text>
          {texts.subtitle}
        </Stack>
        <Button
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={props.canAdd === false || editing === 'new'}
          onClick={() => {
            open('new');
          }}
          data-testid={ids.add}
        >
          {texts.add}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {texts.hint}
      </Text>
      {editing === 'new' ? props.form(null, close) : null}
      {items.isPending ? (
        <Skeleton h={72} />
      ) : items.isError ? (
        <Text c="red" size="sm">
          {errorText(items.error, t)}
        </Text>
      ) : items.data.length === 0 && texts.none !== undefined && editing !== 'new' ? (
        <Text size="sm" c="dimmed" data-testid={ids.none}>
          {texts.none}
        </Text>
      ) : (
        <Stack gap="xs" data-testid={ids.list}>
          {items.data.map((item) => {
            const { id } = item;
            if (editing === id) return <Fragment key={id}>{props.form(item, close)}</Fragment>;
            const deleteLabel = props.deleteLabel(item);
            return (
              <Card withBorder padding="sm" key={id} {...props.rowData?.(item)} data-testid={ids.row}>
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    {props.row(item)}
                  </Stack>
                  <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={props.editLabel(item)}
                      onClick={() => {
                        open(id);
                      }}
                      data-testid={ids.edit}
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                    {deleteLabel === null ? null : (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={deleteLabel}
                        onClick={() => {
                          remove.reset();
                          setDeleting(item);
                        }}
                        data-testid={ids.remove}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => {
          setDeleting(null);
        }}
        title={texts.deleteTitle}
        cancelLabel={texts.cancel}
        confirmLabel={texts.deleteConfirm}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting === null) return;
          remove.mutate(deleting.id, {
            onSettled: () => {
              setDeleting(null);
            },
          });
        }}
        confirmTestId={ids.confirm}
      >
        {props.deleteText(deleting)}
      </ConfirmDialog>
    </Stack>
  );
}
