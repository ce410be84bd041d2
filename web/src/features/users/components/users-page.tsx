import {
  ActionIcon,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Menu,
  Pagination,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconMailForward, IconPencil, IconPhoto, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../i18n/dates';
import { localeOf } from '../../../i18n/languages';
import { PageHeader } from '../../../components/page-header';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../lib/constants';
import type { Role } from '../../../lib/roles';
import { meQueryOptions } from '../../auth/queries';
import type { User } from '../model';
import { useUserMutations } from '../mutations';
import { accountListQueryOptions } from '../queries';
import { ALLOWED_AVATAR_TYPES } from '../upload';
import { usePasswordPrompt } from './password-prompt';
import { UserAvatar } from './user-avatar';
import { UserFormModal } from './user-form-modal';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { RowTable } from '../../../components/row-cards';
import { usePageNumbers } from '../../../components/pager';

type ActiveFilter = 'all' | 'true' | 'false';

/** The roles `role` may give an account it creates: an admin creates fans only (the server
 * refuses them an admin); only a super admin changes a role (the form hides the choice from
 * an admin editing). */
export function roleChoices(role: Role): Role[] {
  return role === 'sa' ? ['user', 'admin', 'sa'] : ['user'];
}

/** Users admin (admin, sa): list with active filter and search, create, edit, delete… */
export function UsersPage(): ReactNode {
  const { t, i18n } = useTranslation('users');
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const [page, setPage] = useState(DEFAULT_PAGE);
  const pageNumbers = usePageNumbers();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [active, setActive] = useState<ActiveFilter>('all');
  const [editing, setEditing] = useState<User | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const mutations = useUserMutations();
  // Changing someone's e-mail or two-step verification takes the admin's own password.
  const prompt = usePasswordPrompt();

  const list = useQuery(
    accountListQueryOptions({
      page,
      pageSize: DEFAULT_PAGE_SIZE,
      search: debouncedSearch.trim() || undefined,
      active: active === 'all' ? undefined : active === 'true',
    }),
  );
  const isSa = me.role === 'sa';
  const roleOptions = roleChoices(me.role);
  const canManage = (user: User): boolean => isSa || user.role !== 'sa';
  const totalPages = list.data ? Math.max(1, Math.ceil(list.data.total / DEFAULT_PAGE_SIZE)) : 1;
  const users = list.data?.users ?? [];

  /** Each cell of a user's row, shown in the table's columns or on the user's card. */
  const cellsOf = (user: User): Record<'user' | 'role' | 'active' | 'mfa' | 'created' | 'actions', ReactNode> => {
    const manageable = canManage(user);
    const self = user.id === me.id;
    return {
      user: (
        <Group gap="sm" wrap="nowrap">
          <UserAvatar user={user} size={34} />
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600}>
              {user.fullname || '—'}
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>
            {user.pendingEmail ? (
              <Text size="xs" c="yellow" style={{ overflowWrap: 'anywhere' }}>
                {t('pendingEmail', { email: user.pendingEmail })}
              </Text>
            ) : null}
          </div>
        </Group>
      ),
      role: (
        <Badge variant="light" color={user.role === 'user' ? 'gray' : 'encore'}>
          {t(`common:roles.${user.role}`)}
        </Badge>
      ),
      // A switch only where it can be used: a greyed-out switch reads as "off".
      active:
        manageable && !self ? (
          <Switch
            checked={user.active}
            aria-label={t('table.active')}
            onChange={(event) => {
              mutations.setEnabled.mutate({ id: user.id, enabled: event.currentTarget.checked });
            }}
          />
        ) : (
          <Badge variant="light" color={user.active ? 'green' : 'gray'} data-testid="user-active-state">
            {user.active ? t('filter.active') : t('filter.inactive')}
          </Badge>
        ),
      mfa: (
        <Switch
          checked={user.useMFA}
          disabled={!manageable || (!user.phone && !user.useMFA)}
          aria-label={t('table.mfa')}
          onChange={(event) => {
            const useMFA = event.currentTarget.checked;
            void prompt.ask().then((currentPassword) => {
              if (currentPassword !== null) mutations.setMfa.mutate({ id: user.id, useMFA, currentPassword });
            });
          }}
        />
      ),
      created: <Text size="sm">{formatDate(user.created_at, localeOf(i18n.language))}</Text>,
      actions: (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={t('table.actions')} disabled={!manageable}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconPencil size={16} />}
              onClick={() => {
                setEditing(user);
                setFormOpen(true);
              }}
            >
              {t('actions.edit')}
            </Menu.Item>
            <FileButton
              accept={ALLOWED_AVATAR_TYPES.join(',')}
              onChange={(file) => {
                if (file) mutations.avatar.mutate({ id: user.id, file });
              }}
            >
              {(props) => (
                <Menu.Item leftSection={<IconPhoto size={16} />} closeMenuOnClick={false} {...props}>
                  {t('actions.avatar')}
                </Menu.Item>
              )}
            </FileButton>
            <Menu.Item
              leftSection={<IconMailForward size={16} />}
              onClick={() => {
                mutations.reinvite.mutate(user.id);
              }}
            >
              {t('actions.reinvite')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              disabled={self}
              onClick={() => {
                setDeleting(user);
              }}
            >
              {t('actions.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    };
  };

  const openCreate = (): void => {
    setEditing(null);
    setFormOpen(true);
  };

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        description={t('subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate} data-testid="user-create">
            {t('create')}
          </Button>
        }
      />
      <Card withBorder padding="md">
        <Group mb="md" justify="space-between" wrap="wrap">
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t('searchPlaceholder')}
            aria-label={t('searchPlaceholder')}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            w={{ base: '100%', sm: 320 }}
            data-testid="user-search"
          />
          <SegmentedControl
            value={active}
            onChange={(value) => {
              setActive(value as ActiveFilter);
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('filter.all') },
              { value: 'true', label: t('filter.active') },
              { value: 'false', label: t('filter.inactive') },
            ]}
          />
        </Group>
        {list.isError ? (
          <Text c="red">{t('loadFailed')}</Text>
        ) : list.isPending ? (
          <Stack gap="xs" data-testid="users-loading">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} h={44} />
            ))}
          </Stack>
        ) : users.length === 0 ? (
          <Text ta="center" c="dimmed" py="xl" data-testid="users-empty">
            {t('common:empty.itemsNotFound')}
          </Text>
        ) : (
          <RowTable
            rows={users}
            columns={[
              { key: 'user', label: t('table.user'), onCard: 'heading' },
              { key: 'role', label: t('table.role') },
              { key: 'active', label: t('table.active') },
              { key: 'mfa', label: t('table.mfa') },
              { key: 'created', label: t('table.created') },
              { key: 'actions', label: t('table.actions'), onCard: 'aside', controls: true },
            ]}
            cellsOf={cellsOf}
            testId="users-table"
            rowTestId="user-row"
            tableProps={{ highlightOnHover: true, verticalSpacing: 'sm' }}
          />
        )}
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed">
            {t('total', { count: list.data?.total ?? 0 })}
          </Text>
          <Pagination total={totalPages} value={page} onChange={setPage} size="sm" getItemProps={pageNumbers} />
        </Group>
      </Card>
      <UserFormModal
        opened={formOpen}
        user={editing}
        roleOptions={roleOptions}
        canChangeRole={isSa}
        loading={mutations.create.isPending || mutations.update.isPending}
        onClose={() => {
          setFormOpen(false);
        }}
        onSubmit={(values) => {
          const close = { onSuccess: () => { setFormOpen(false); } };
          if (!editing) {
            mutations.create.mutate(values, close);
            return;
          }
          const withRole = isSa && values.role !== editing.role;
          if (values.email.trim().toLowerCase() === editing.email) {
            mutations.update.mutate({ id: editing.id, values, withRole, currentPassword: null }, close);
            return;
          }
          void prompt.ask().then((currentPassword) => {
            if (currentPassword !== null) mutations.update.mutate({ id: editing.id, values, withRole, currentPassword }, close);
          });
        }}
      />
      {prompt.dialog}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => {
          setDeleting(null);
        }}
        title={t('delete.title')}
        centered
        cancelLabel={t('form.cancel')}
        confirmLabel={t('delete.confirm')}
        busy={mutations.remove.isPending}
        onConfirm={() => {
          if (deleting) mutations.remove.mutate(deleting.id, { onSuccess: () => { setDeleting(null); } });
        }}
        confirmTestId="user-delete-confirm"
      >
        <Text>{t('delete.text', { name: deleting?.fullname || deleting?.email })}</Text>
      </ConfirmDialog>
    </Stack>
  );
}
