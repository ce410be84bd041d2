import { Alert, Badge, Button, Card, FileButton, Group, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './language-picker';
import { localeOf } from '../../../i18n/languages';
import { latinDigits, localDigits } from '../../../i18n/numbers';
import { PageHeader } from '../../../components/page-header';
import { meQueryOptions } from '../../auth/queries';
import { validateCode, validateEmail, validatePassword, validatePasswordCheck, validatePhone } from '../../auth/validation';
import { usePasswordPrompt } from '../../users/components/password-prompt';
import { UserAvatar } from '../../users/components/user-avatar';
import type { User } from '../../users/model';
import { ALLOWED_AVATAR_TYPES } from '../../users/upload';
import { useChangePassword, useRemovePhone, useSaveProfile, useSendPhoneCode, useSetMfa, useUploadOwnAvatar, useVerifyPhone } from '../mutations';

/** One card of the page: its title, then its content. */
function PreferencesCard({ title, children }: { title: string; children: ReactNode }): ReactNode {
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** A card's form's submit button, at the end of its row. */
function SubmitRow({ loading, children }: { loading: boolean; children: ReactNode }): ReactNode {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={loading}>
        {children}
      </Button>
    </Group>
  );
}

function ProfileCard({ user }: { user: User }): ReactNode {
  const { t } = useTranslation('account');
  const form = useForm({
    initialValues: { fullname: user.fullname, email: user.email, notes: user.notes },
    validate: {
      fullname: (value) => (value.trim() ? null : t('profile.nameRequired')),
      email: (value) => (validateEmail(value) ? t('profile.emailInvalid') : null),
    },
  });
  const prompt = usePasswordPrompt();
  // A new e-mail takes the current password, and waits for the link sent to it.
  const save = useSaveProfile(user.id);
  const submit = async (values: typeof form.values): Promise<void> => {
    let currentPassword: string | null = null;
    if (values.email.trim().toLowerCase() !== user.email) {
      currentPassword = await prompt.ask();
      if (currentPassword === null) return;
    }
    save.mutate({ values, currentPassword });
  };
  const avatar = useUploadOwnAvatar(user.id);
  return (
    <PreferencesCard title={t('profile.title')}>
      <Group mb="md">
        <UserAvatar user={user} size={72} />
        <Stack gap={4}>
          <FileButton
            accept={ALLOWED_AVATAR_TYPES.join(',')}
            onChange={(file) => {
              if (file) avatar.mutate(file);
            }}
          >
            {(props) => (
              <Button variant="light" size="xs" loading={avatar.isPending} {...props} data-testid="avatar-upload">
                {t('profile.changeAvatar')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('profile.avatarHint')}
          </Text>
        </Stack>
      </Group>
      {prompt.dialog}
      <form
        onSubmit={form.onSubmit((values) => {
          void submit(values);
        })}
        noValidate
      >
        <Stack gap="sm">
          <TextInput label={t('profile.fullname')} withAsterisk {...form.getInputProps('fullname')} name="fullname" />
          <TextInput label={t('profile.email')} withAsterisk type="email" {...form.getInputProps('email')} name="email" />
          {user.pendingEmail ? (
            <Alert variant="light" color="yellow" data-testid="pending-email">
              {t('profile.pendingEmail', { email: user.pendingEmail })}
            </Alert>
          ) : null}
          <Textarea label={t('profile.notes')} autosize minRows={2} {...form.getInputProps('notes')} name="notes" />
          <SubmitRow loading={save.isPending}>{t('profile.save')}</SubmitRow>
        </Stack>
      </form>
    </PreferencesCard>
  );
}

function PasswordCard({ user }: { user: User }): ReactNode {
  const { t } = useTranslation('account');
  const form = useForm({
    initialValues: { currentPassword: '', password: '', passwordCheck: '' },
    validate: {
      currentPassword: (value) => (value ? null : t('password.currentRequired')),
      password: (value) => {
        const key = validatePassword(value);
        return key ? t(`auth:${key}`) : null;
      },
      passwordCheck: (value, values) => (validatePasswordCheck(value, values.password) ? t('auth:validation.passwordMismatch') : null),
    },
  });
  const change = useChangePassword(user.id);
  return (
    <PreferencesCard title={t('password.title')}>
      <form
        onSubmit={form.onSubmit((values) => {
          change.mutate(values, { onSuccess: () => { form.reset(); } });
        })}
        noValidate
      >
        <Stack gap="sm">
          <PasswordInput label={t('password.current')} withAsterisk autoComplete="current-password" {...form.getInputProps('currentPassword')} />
          <PasswordInput label={t('password.new')} withAsterisk description={t('auth:validation.passwordRules')} autoComplete="new-password" {...form.getInputProps('password')} />
          <PasswordInput label={t('password.check')} withAsterisk autoComplete="new-password" {...form.getInputProps('passwordCheck')} />
          <SubmitRow loading={change.isPending}>{t('password.submit')}</SubmitRow>
        </Stack>
      </form>
    </PreferencesCard>
  );
}

function SecondFactorCard({ user }: { user: User }): ReactNode {
  const { t, i18n } = useTranslation('account');
  const [codeSent, setCodeSent] = useState(false);
  const phoneForm = useForm({
    initialValues: { phone: '' },
    validate: { phone: (value) => (validatePhone(value) ? t('auth:validation.phoneInvalid') : null) },
    transformValues: ({ phone }) => ({ phone: latinDigits(phone) }),
  });
  const codeForm = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (validateCode(value) ? t('auth:validation.codeInvalid') : null) },
    transformValues: ({ code }) => ({ code: latinDigits(code) }),
  });
  // Every change here takes the current password (step-up); the one given to send a code is
  // kept for confirming it.
  const prompt = usePasswordPrompt();
  const [stepUpPassword, setStepUpPassword] = useState('');
  const sendCode = useSendPhoneCode(user.id);
  const verify = useVerifyPhone(user.id);
  const remove = useRemovePhone(user.id);
  const toggle = useSetMfa(user.id);
  const withPassword = async (action: (currentPassword: string) => void): Promise<void> => {
    const currentPassword = await prompt.ask();
    if (currentPassword !== null) action(currentPassword);
  };
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={4}>{t('mfa.title')}</Title>
        {user.useMFA ? (
          <Badge color="green" variant="light">
            {t('mfa.on')}
          </Badge>
        ) : null}
      </Group>
      {prompt.dialog}
      <Stack gap="sm">
        {user.useMFA ? null : (
          <Alert variant="light" color="blue" icon={<IconShieldLock size={18} />} data-testid="mfa-offer">
            {t('mfa.offer')}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          {t('mfa.intro')}
        </Text>
        <Switch
          label={t('mfa.toggle')}
          checked={user.useMFA}
          disabled={(!user.phone && !user.useMFA) || toggle.isPending}
          onChange={(event) => {
            const useMFA = event.currentTarget.checked;
            void withPassword((currentPassword) => {
              toggle.mutate({ useMFA, currentPassword });
            });
          }}
          data-testid="mfa-toggle"
        />
        {user.phone ? (
          <Group justify="space-between">
            <Text size="sm">
              {/* Isolated left to right inside a right-to-left sentence, in the reader's digits. */}
              {t('mfa.phoneEnrolled', { phone: `\u2066${localDigits(user.phone, localeOf(i18n.language))}\u2069` })}
            </Text>
            <Button
              variant="light"
              color="red"
              size="xs"
              loading={remove.isPending}
              onClick={() => {
                void withPassword((currentPassword) => {
                  remove.mutate(currentPassword);
                });
              }}
            >
              {t('mfa.removePhone')}
            </Button>
          </Group>
        ) : (
          <>
            <Alert variant="light">{user.useMFA ? t('mfa.noPhoneMfaOn') : t('mfa.noPhone')}</Alert>
            {codeSent ? (
              <form
                onSubmit={codeForm.onSubmit((values) => {
                  verify.mutate({ code: values.code, currentPassword: stepUpPassword }, {
                    onSuccess: () => {
                      setCodeSent(false);
                      codeForm.reset();
                      setStepUpPassword('');
                    },
                  });
                })}
                noValidate
              >
                <Group align="flex-end">
                  <TextInput label={t('mfa.code')} withAsterisk inputMode="numeric" maxLength={6} {...codeForm.getInputProps('code')} />
                  <Button type="submit" loading={verify.isPending}>
                    {t('mfa.verify')}
                  </Button>
                </Group>
              </form>
            ) : (
              <form
                onSubmit={phoneForm.onSubmit((values) => {
                  void withPassword((currentPassword) => {
                    setStepUpPassword(currentPassword);
                    sendCode.mutate({ phone: values.phone, currentPassword }, { onSuccess: () => { setCodeSent(true); } });
                  });
                })}
                noValidate
              >
                <Group align="flex-end">
                  <TextInput
                    label={t('mfa.phone')}
                    withAsterisk
                    // An example in the reader's digits; a number reads left to right in every language.
                    placeholder={localDigits('+447700900123', localeOf(i18n.language))}
                    type="tel"
                    dir="ltr"
                    {...phoneForm.getInputProps('phone')}
                  />
                  <Button type="submit" loading={sendCode.isPending}>
                    {t('mfa.sendCode')}
                  </Button>
                </Group>
              </form>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

/** Preferences: own profile, avatar, password, second factor and phone, language. */
export function PreferencesPage(): ReactNode {
  const { t } = useTranslation('account');
  const { data: user } = useSuspenseQuery(meQueryOptions());
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#account') document.getElementById('account')?.scrollIntoView();
  }, [hash]);
  return (
    <Stack gap="lg">
      <PageHeader title={t('preferences.title')} description={t('preferences.subtitle')} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ProfileCard key={`${user.id}-${user.fullname}-${user.email}-${user.pendingEmail ?? ''}`} user={user} />
        {/* The profile menu's "Account": sign-in and security, reached at /preferences#account. */}
        <Stack gap="lg" id="account" style={{ scrollMarginTop: 80 }}>
          <SecondFactorCard user={user} />
          <PasswordCard user={user} />
          <PreferencesCard title={t('language.title')}>
            <LanguagePicker />
          </PreferencesCard>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
