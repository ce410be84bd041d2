import { ActionIcon, Badge, Button, Card, Drawer, FileButton, Group, Modal, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDiscount, IconEdit, IconExternalLink, IconPhotoUp, IconPlus, IconUserMinus } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { meQueryOptions } from '../../auth/queries';
import { managedEventsQueryOptions } from '../../events/queries';
import type { Project, ProjectInput, ProjectStatus } from '../api';
import { useAddProjectMember, useRemoveProjectMember, useSaveProject, useUploadProjectPicture } from '../mutations';
import { MAX_PICTURE_MIB, PICTURE_TYPES } from '../picture';
import { ArtistPicture } from '../../artist/components/artist-picture';
import { artistPath } from '../../artist/model';
import { projectListQueryOptions } from '../queries';
import { isStaff } from '../../../lib/roles';
import { Pager } from '../../../components/pager';
import { FormActions } from '../../../components/form-actions';
import { PromoCodesPanel } from '../../promo/components/promo-codes-panel';

const PAGE_SIZE = 9;
const STATUSES: ProjectStatus[] = ['active', 'paused', 'archived'];
const STATUS_COLOR: Record<ProjectStatus, string> = { active: 'green', paused: 'yellow', archived: 'gray' };

export function ProjectStatusBadge({ status }: { status: ProjectStatus }): ReactNode {
  const { t } = useTranslation('events');
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid="project-status">
      {t(`projects.status.${status}`)}
    </Badge>
  );
}

function ProjectFormModal({ project, onClose }: { project: Project | null; onClose: () => void }): ReactNode {
  const { t } = useTranslation('events');
  const form = useForm<Required<ProjectInput>>({
    initialValues: { name: project?.name ?? '', description: project?.description ?? '', status: project?.status ?? 'active' },
    validate: { name: (v) => (v.trim() ? null : t('form.required')) },
  });
  const save = useSaveProject(project, onClose);
  return (
    <Modal opened onClose={onClose} title={project ? t('projects.editTitle') : t('projects.createTitle')}>
      <form onSubmit={form.onSubmit((values) => { save.mutate({ ...values, name: values.name.trim() }); })}>
        <Stack>
          <TextInput label={t('projects.name')} withAsterisk name="name" {...form.getInputProps('name')} />
          <Textarea label={t('form.description')} autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label={t('projects.statusLabel')}
            data={STATUSES.map((s) => ({ value: s, label: t(`projects.status.${s}`) }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('status')}
          />
          <FormActions
            cancelLabel={t('form.cancel')}
            onCancel={onClose}
            submitLabel={t('form.save')}
            saving={save.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** The artist's picture (what the artist's page and its link previews show): upload a new
 * one; and the artist's page itself, public once a concert of the project is announced. */
function ProjectPicture({ project, announced }: { project: Project; announced: boolean }): ReactNode {
  const { t } = useTranslation('events');
  const upload = useUploadProjectPicture(project.id);
  // The same file may be picked again after a failed upload.
  const resetRef = useRef<() => void>(null);
  return (
    <Stack gap={4} align="flex-start">
      <FileButton
        resetRef={resetRef}
        accept={PICTURE_TYPES.join(',')}
        onChange={(file) => {
          resetRef.current?.();
          if (file) upload.mutate(file);
        }}
      >
        {(props) => (
          <Button variant="light" size="xs" leftSection={<IconPhotoUp size={14} />} loading={upload.isPending} {...props} data-testid="project-picture-upload">
            {project.image ? t('projects.changePicture') : t('projects.uploadPicture')}
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed">
        {t('projects.pictureHint', { size: MAX_PICTURE_MIB })}
      </Text>
      {announced ? (
        <Button component={Link} to={artistPath(project.id)} variant="subtle" size="xs" leftSection={<IconExternalLink size={14} />} data-testid="project-artist-page">
          {t('projects.viewArtistPage')}
        </Button>
      ) : (
        <Text size="xs" c="dimmed" data-testid="project-artist-page-later">
          {t('projects.artistPageLater')}
        </Text>
      )}
    </Stack>
  );
}

function Members({ project, staff }: { project: Project; staff: boolean }): ReactNode {
  const { t } = useTranslation('events');
  const [login, setLogin] = useState('');
  const add = useAddProjectMember(project.id, () => {
    setLogin('');
  });
  const remove = useRemoveProjectMember(project.id);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('projects.members', { count: project.members.length })}
      </Text>
      {project.members.map((member) => (
        <Group key={member.id} justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" lineClamp={1}>
            {member.fullname || member.login}
          </Text>
          {staff ? (
            <ActionIcon size="sm" variant="subtle" color="red" aria-label={t('projects.removeMember')} onClick={() => { remove.mutate(member.id); }}>
              <IconUserMinus size={14} />
            </ActionIcon>
          ) : null}
        </Group>
      ))}
      {staff ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (login.trim()) add.mutate(login);
          }}
        >
          <Group gap="xs" wrap="nowrap" mt={4}>
            <TextInput size="xs" type="email" placeholder={t('projects.memberEmail')} aria-label={t('projects.memberEmail')} value={login} onChange={(e) => { setLogin(e.currentTarget.value); }} style={{ flex: 1 }} />
            <Button size="xs" type="submit" variant="light" loading={add.isPending}>
              {t('projects.addMember')}
            </Button>
          </Group>
        </form>
      ) : null}
    </Stack>
  );
}

/** Artist projects: paged, with status badges, members and concert counts. */
export function ProjectsPage(): ReactNode {
  const { t } = useTranslation('events');
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const staff = isStaff(me.role);
  const [page, setPage] = useState(1);
  const list = useQuery(projectListQueryOptions(page, PAGE_SIZE));
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  // Whoever sees a project (staff, its members) manages its concerts: list them per project.
  const concerts = useQuery({ ...managedEventsQueryOptions(), enabled: (list.data?.items.length ?? 0) > 0, retry: false });
  const [promoOf, setPromoOf] = useState<Project | null>(null);
  return (
    <>
      <PageHeader
        title={t('common:nav.projects')}
        description={t('common:pages.projects.intro')}
        actions={
          <Group gap="xs">
            {(list.data?.items.length ?? 0) > 0 ? (
              <Button component={Link} to="/manage-events" variant="light" data-testid="projects-manage-events">
                {t('projects.manageConcerts')}
              </Button>
            ) : null}
            {staff ? (
              <Button leftSection={<IconPlus size={16} />} onClick={() => { setEditing('new'); }}>
                {t('projects.create')}
              </Button>
            ) : null}
          </Group>
        }
      />
      {list.isPending ? (
        <Skeleton h={200} />
      ) : list.isError ? (
        <Text c="red">{t('projects.loadFailed')}</Text>
      ) : list.data.items.length === 0 ? (
        <EmptyState title={t('common:pages.projects.emptyTitle')} description={t('common:pages.projects.emptyText')} />
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="projects-grid">
            {list.data.items.map((project) => (
              <Card key={project.id} withBorder data-testid="project-card">
                <Card.Section mb="sm">
                  <ArtistPicture name={project.name} src={project.thumbnail} height={120} />
                </Card.Section>
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={700} lineClamp={1}>
                      {project.name}
                    </Text>
                    <Group gap={4} wrap="nowrap">
                      <ProjectStatusBadge status={project.status} />
                      {staff ? (
                        <ActionIcon variant="subtle" aria-label={t('projects.editTitle')} onClick={() => { setEditing(project); }}>
                          <IconEdit size={16} />
                        </ActionIcon>
                      ) : null}
                    </Group>
                  </Group>
                  {project.description ? (
                    <Text size="sm" c="dimmed" lineClamp={3}>
                      {project.description}
                    </Text>
                  ) : null}
                  <Text size="sm">{t('projects.eventCount', { count: project.eventCount })}</Text>
                  {(concerts.data ?? [])
                    .filter((event) => event.projectId === project.id)
                    .map((event) => (
                      <Text key={event.id} size="sm" c="dimmed" lineClamp={1}>
                        {t('projects.concertLine', { title: event.title, status: t(`status.${event.status}`) })}
                      </Text>
                    ))}
                  <ProjectPicture project={project} announced={(concerts.data ?? []).some((event) => event.projectId === project.id && event.status !== 'draft')} />
                  <Members project={project} staff={staff} />
                  <Button variant="light" size="xs" leftSection={<IconDiscount size={14} />} onClick={() => { setPromoOf(project); }} data-testid="project-promo">
                    {t('promo:manage.projectButton')}
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
          <Pager pages={pages} page={page} onChange={setPage} />
        </Stack>
      )}
      <Drawer opened={promoOf !== null} onClose={() => { setPromoOf(null); }} position="right" size="lg" title={promoOf?.name} data-testid="project-promo-drawer">
        {promoOf ? (
          <PromoCodesPanel scope={{ kind: 'project', id: promoOf.id }} concerts={(concerts.data ?? []).filter((event) => event.projectId === promoOf.id)} />
        ) : null}
      </Drawer>
      {editing !== null ? <ProjectFormModal project={editing === 'new' ? null : editing} onClose={() => { setEditing(null); }} /> : null}
    </>
  );
}
