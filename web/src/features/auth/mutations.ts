import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { splitFullname } from '../users/model';
import { register, signUp } from './api';

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
