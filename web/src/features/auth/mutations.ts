import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { splitFullname } from '../users/model';
import {
  approveQrRequest,
  associatePhone,
  completeMfa,
  confirmEmail,
  forgotPassword,
  register,
  resendVerification,
  resetPassword,
  signIn,
  signUp,
  startQrSignIn,
  verifyEmail,
} from './api';
import type { QrStart, SignInResult } from './api';
import { authKeys } from './queries';

/** What the shared sign-up form submits (the name only where the page asks for it). */
export interface SignUpValues {
  fullname: string;
  email: string;
  password: string;
  passwordCheck: string;
}

/** Says the account is made; errors stay inline in the form (409 reads "User already exists"). */
function useAccountCreated(onCreated: () => void): () => void {
  const { t } = useTranslation('auth');
  return () => {
    notifications.show({ color: 'green', title: t('signup.doneTitle'), message: t('signup.doneText') });
    onCreated();
  };
}

/** POST /accounts/signup: name, e-mail and password. */
export function useSignUp(onCreated: () => void) {
  const onSuccess = useAccountCreated(onCreated);
  return useMutation({
    mutationFn: (values: SignUpValues) =>
      signUp({ email: values.email, password: values.password, ...splitFullname(values.fullname) }),
    onSuccess,
  });
}

/** The OAuth `register` call: e-mail and password. */
export function useRegister(onCreated: () => void) {
  const onSuccess = useAccountCreated(onCreated);
  return useMutation({
    mutationFn: (values: SignUpValues) => register(values.email, values.password),
    onSuccess,
  });
}

/** Password sign-in; the result says whether a second factor is needed. Errors stay inline. */
export function useSignIn(onResult: (result: SignInResult) => void) {
  return useMutation({
    mutationFn: (values: { email: string; password: string }) => signIn(values.email, values.password),
    onSuccess: onResult,
  });
}

/** Enrol a phone for the second factor during sign-in (the enrolment token from the e-mail). */
export function useAssociatePhone(enrolmentToken: string | null, onAssociated: () => void) {
  return useMutation({
    mutationFn: (phone: string) => associatePhone(phone, enrolmentToken),
    onSuccess: onAssociated,
  });
}

/** The SMS code that completes an MFA sign-in. */
export function useCompleteMfa(onSignedIn: () => void) {
  return useMutation({
    mutationFn: (code: string) => completeMfa(code),
    onSuccess: (result) => {
      if (result.kind === 'signed-in') onSignedIn();
    },
  });
}

/** Spend an e-mail verification link; refreshes "me". */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.me }),
  });
}

/** Spend an e-mail change confirmation link; refreshes "me". */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.me }),
  });
}

/** Send the verification e-mail again, and say so. */
export function useResendVerification(email: string) {
  const { t } = useTranslation('auth');
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('verifyBanner.sent', { email }) });
    },
    onError: (error) => {
      notifications.show({ color: 'red', message: errorText(error, t) });
    },
  });
}

/** Ask for a password-reset link; errors stay inline. */
export function useForgotPassword(onSent: (email: string) => void) {
  return useMutation({
    mutationFn: (email: string) => forgotPassword(email),
    onSuccess: (_data, email) => {
      onSent(email);
    },
  });
}

/** Set a new password with the reset link's token, and say so. */
export function useResetPassword(token: string, onDone: () => void) {
  const { t } = useTranslation('auth');
  return useMutation({
    mutationFn: (password: string) => resetPassword(token, password),
    onSuccess: () => {
      notifications.show({ color: 'green', title: t('reset.doneTitle'), message: t('reset.doneText') });
      onDone();
    },
  });
}

/** Approve another device's QR sign-in: the number it shows and this account's password. */
export function useApproveQr(id: string) {
  return useMutation({
    mutationFn: (input: { number: number; password: string }) => approveQrRequest(id, input.number, input.password),
  });
}

/** Start a QR sign-in on this device. */
export function useStartQrSignIn(onStarted: (session: QrStart) => void) {
  return useMutation({
    mutationFn: startQrSignIn,
    onSuccess: onStarted,
  });
}
