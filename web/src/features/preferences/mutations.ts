import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { authKeys } from '../auth/queries';
import { changeMfa, changePassword, removePhone, startPhoneEnrolment, updateAccount, uploadAvatar, verifyPhone } from '../users/api';
import { splitFullname } from '../users/model';
import { accountKeys } from '../users/queries';
import { checkAvatarFile } from '../users/upload';

/** A change to one's own account: says how it went, and refreshes "me" and the account lists. */
function useAccountMutation<TVars>(fn: (vars: TVars) => Promise<unknown>, successKey: string) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t(successKey) });
      await queryClient.invalidateQueries({ queryKey: authKeys.me });
      await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
    onError: (error) => {
      notifications.show({ color: 'red', title: t('toast.failed'), message: errorText(error, t) });
    },
  });
}

export interface ProfileValues {
  fullname: string;
  email: string;
  notes: string;
}

/** Name and notes; a new e-mail takes the current password (null: the e-mail is unchanged),
 * and waits for the link sent to it. */
export function useSaveProfile(userId: string) {
  return useAccountMutation(({ values, currentPassword }: { values: ProfileValues; currentPassword: string | null }) => {
    const login = values.email.trim().toLowerCase();
    return updateAccount(userId, {
      person: splitFullname(values.fullname),
      notes: values.notes,
      ...(currentPassword !== null ? { login, currentPassword } : {}),
    });
  }, 'toast.profileSaved');
}

export function useUploadOwnAvatar(userId: string) {
  return useAccountMutation((file: File) => {
    checkAvatarFile(file);
    return uploadAvatar(userId, file);
  }, 'toast.avatarSaved');
}

export function useChangePassword(userId: string) {
  return useAccountMutation(
    (values: { currentPassword: string; password: string }) => changePassword(userId, values.currentPassword, values.password),
    'toast.passwordChanged',
  );
}

export function useSendPhoneCode(userId: string) {
  return useAccountMutation(
    ({ phone, currentPassword }: { phone: string; currentPassword: string }) => startPhoneEnrolment(userId, phone, currentPassword),
    'toast.codeSent',
  );
}

export function useVerifyPhone(userId: string) {
  return useAccountMutation(
    ({ code, currentPassword }: { code: string; currentPassword: string }) => verifyPhone(userId, code, currentPassword),
    'toast.phoneSaved',
  );
}

export function useRemovePhone(userId: string) {
  return useAccountMutation((currentPassword: string) => removePhone(userId, currentPassword), 'toast.phoneRemoved');
}

export function useSetMfa(userId: string) {
  return useAccountMutation(
    ({ useMFA, currentPassword }: { useMFA: boolean; currentPassword: string }) => changeMfa(userId, useMFA, currentPassword),
    'toast.mfaSaved',
  );
}
