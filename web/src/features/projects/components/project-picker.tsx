import { Button, Card, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors';
import { useCreateProject } from '../mutations';
import { projectChoicesQueryOptions } from '../queries';

interface ProjectPickerProps {
  value: string;
  onChange: (projectId: string) => void;
  error?: ReactNode;
  disabled?: boolean;
  /** Staff may create a project in place. */
  canCreate: boolean;
}

/** In place: name and description of a new project; Enter creates it (never submits the outer form). */
function NewProjectFields({ initialName, onCreated, onCancel }: { initialName: string; onCreated: (id: string) => void; onCancel?: () => void }): ReactNode {
  const { t } = useTranslation('events');
  const [name, setName] = useState(initialName);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateProject(
    (project) => {
      onCreated(project.id);
    },
    (failure) => {
      setError(errorText(failure, t));
    },
  );
  const submit = (): void => {
    if (!name.trim()) {
      setError(t('form.required'));
      return;
    }
    setError(null);
    create.mutate({ name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
  };
  return (
    <Card withBorder p="sm" data-testid="new-project">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {t('projects.createTitle')}
        </Text>
        <TextInput
          label={t('projects.name')}
          withAsterisk
          value={name}
          error={error}
          data-autofocus
          onChange={(e) => {
            setName(e.currentTarget.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
          data-testid="new-project-name"
        />
        <Textarea
          label={t('form.description')}
          autosize
          minRows={1}
          value={description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
          }}
          data-testid="new-project-description"
        />
        <Group justify="flex-end" gap="xs">
          {onCancel ? (
            <Button size="xs" variant="default" onClick={onCancel}>
              {t('form.cancel')}
            </Button>
          ) : null}
          <Button size="xs" onClick={submit} loading={create.isPending} data-testid="new-project-create">
            {t('projects.createAndPick')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The concert's project: a searchable list, and for staff "New project…" created in place and picked. */
export function ProjectPicker({ value, onChange, error, disabled = false, canCreate }: ProjectPickerProps): ReactNode {
  const { t } = useTranslation('events');
  const projects = useQuery(projectChoicesQueryOptions());
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const items = projects.data?.items ?? [];
  const none = projects.isSuccess && items.length === 0;
  const showNew = canCreate && !disabled && (creating || none);
  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Select
          label={t('form.project')}
          withAsterisk
          description={none ? (canCreate ? t('projects.noneYetStaff') : t('projects.noneYet')) : undefined}
          data={items.map((project) => ({ value: project.id, label: project.name }))}
          value={value || null}
          onChange={(id) => {
            onChange(id ?? '');
          }}
          searchValue={search}
          onSearchChange={setSearch}
          error={error}
          disabled={disabled}
          searchable
          nothingFoundMessage={t('common:empty.itemsNotFound')}
          comboboxProps={{ withinPortal: true }}
          style={{ flex: 1 }}
          data-testid="event-project"
        />
        {canCreate && !disabled && !none ? (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => {
              setCreating(true);
            }}
            disabled={creating}
            data-testid="event-new-project"
          >
            {t('projects.newInPlace')}
          </Button>
        ) : null}
      </Group>
      {showNew ? (
        <NewProjectFields
          // A name typed in the search that matched nothing starts the new project's name.
          initialName={items.some((p) => p.name === search) ? '' : search}
          onCreated={(id) => {
            setCreating(false);
            onChange(id);
          }}
          onCancel={
            none
              ? undefined
              : () => {
                  setCreating(false);
                }
          }
        />
      ) : null}
    </Stack>
  );
}
