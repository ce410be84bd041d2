import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import type { Role } from '../../lib/roles';
import { authKeys } from '../auth/queries';
import {
  changeMfa,
  createAccount,
  deleteAccount,
  reinviteAccount,
  updateAccount,
  uploadAvatar,
} from './api';
import { splitFullname } from './model';
import { accountKeys } from './queries';
import { checkAvatarFile } from './upload';

export interface UserFormValues {
  fullname: string;
  email: string;
  role: Role;
  notes: string;
}

/** Users admin mutations: each invalidates the accounts prefix and reports in a toast. */
export function useUserMutations() {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const onError = (error: unknown): void => {
    notifications.show({ color: 'red', title: t('toast.failed'), message: errorText(error, t) });
  };
  const done = (message: string) => async (): Promise<void> => {
    notifications.show({ color: 'green', message });
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    await queryClient.invalidateQueries({ queryKey: authKeys.me });
  };

  return {
    create: useMutation({
      mutationFn: (values: UserFormValues) =>
        createAccount({
          login: values.email.trim().toLowerCase(),
          person: splitFullname(values.fullname),
          roles: [values.role],
          notes: values.notes,
        }),
      onSuccess: done(t('toast.created')),
      onError,
    }),
    update: useMutation({
      // `currentPassword` (the admin's own) only when the e-mail changes: the new address then
      // waits for the link sent to it.
      mutationFn: ({
        id,
        values,
        withRole,
        currentPassword,
      }: {
        id: string;
        values: UserFormValues;
        withRole: boolean;
        currentPassword: string | null;
      }) =>
        updateAccount(id, {
          person: splitFullname(values.fullname),
          notes: values.notes,
          ...(currentPassword !== null ? { login: values.email.trim().toLowerCase(), currentPassword } : {}),
          ...(withRole ? { roles: [values.role] } : {}),
        }),
      onSuccess: done(t('toast.updated')),
      onError,
    }),
    remove: useMutation({ mutationFn: (id: string) => deleteAccount(id), onSuccess: done(t('toast.deleted')), onError }),
    setEnabled: useMutation({
      mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => updateAccount(id, { enablement: { enabled } }),
      onSuccess: done(t('toast.updated')),
      onError,
    }),
    setMfa: useMutation({
      mutationFn: ({ id, useMFA, currentPassword }: { id: string; useMFA: boolean; currentPassword: string }) =>
        changeMfa(id, useMFA, currentPassword),
      onSuccess: done(t('toast.updated')),
      onError,
    }),
    reinvite: useMutation({ mutationFn: (id: string) => reinviteAccount(id), onSuccess: done(t('toast.reinvited')), onError }),
    avatar: useMutation({
      mutationFn: ({ id, file }: { id: string; file: File }) => {
        checkAvatarFile(file);
        return uploadAvatar(id, file);
      },
      onSuccess: done(t('toast.avatar')),
      onError,
    }),
  };
}
