import { Alert, Anchor, Button, Loader, PinInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errors';
import { clearSession } from '../session';
import { listAuthenticators } from '../api';
import { useAssociatePhone, useCompleteMfa } from '../mutations';
import { validateCode, validatePhone } from '../validation';

/** The second-factor screen (token status E108): authenticators, phone enrolment, code. */
export function MfaStep({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }): ReactNode {
  const { t } = useTranslation('auth');
  const [enrolledPhone, setEnrolledPhone] = useState(false);
  // The link e-mailed to an account with two-step verification and no phone comes back to
  // /auth/login?enrol_token=…: only with it may this sign-in enrol a phone.
  const [params] = useSearchParams();
  const enrolmentToken = params.get('enrol_token');
  const authenticators = useQuery({
    queryKey: ['oauth', 'authenticators'],
    queryFn: listAuthenticators,
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
  });
  const phoneForm = useForm({
    initialValues: { phone: '' },
    validate: { phone: (value) => (validatePhone(value) ? t('validation.phoneInvalid') : null) },
  });
  const codeForm = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (validateCode(value) ? t('validation.codeInvalid') : null) },
  });
  const associate = useAssociatePhone(enrolmentToken, () => {
    setEnrolledPhone(true);
  });
  const verify = useCompleteMfa(onDone);
  const cancel = (): void => {
    clearSession();
    onCancel();
  };

  if (authenticators.isPending) return <Loader mx="auto" display="block" />;
  if (authenticators.isError) {
    return (
      <Stack>
        <Alert color="red">{errorText(authenticators.error, t)}</Alert>
        <Button variant="light" onClick={cancel}>
          {t('mfa.backToSignIn')}
        </Button>
      </Stack>
    );
  }
  const existing = authenticators.data.find((item) => item.active) ?? authenticators.data[0];
  const needsPhone = !existing && !enrolledPhone;

  return (
    <Stack gap="md" data-testid="mfa-step">
      <div>
        <Title order={2}>{t('mfa.title')}</Title>
        <Text c="dimmed" size="sm">
          {needsPhone
            ? t(enrolmentToken ? 'mfa.enrolFromLink' : 'mfa.enrolIntro')
            : t('mfa.codeIntro', { phone: existing?.name ?? phoneForm.values.phone })}
        </Text>
      </div>
      {needsPhone ? (
        <form
          onSubmit={phoneForm.onSubmit((values) => {
            associate.mutate(values.phone);
          })}
          noValidate
        >
          <Stack gap="sm">
            {associate.isError ? (
              <Alert color="red" data-testid="mfa-associate-error">
                {errorText(associate.error, t)}
              </Alert>
            ) : null}
            <TextInput
              label={t('fields.phone')}
              description={t('mfa.phoneHint')}
              placeholder="+447700900123"
              type="tel"
              autoComplete="tel"
              {...phoneForm.getInputProps('phone')}
              name="phone"
            />
            <Button type="submit" loading={associate.isPending}>
              {t('mfa.sendCode')}
            </Button>
          </Stack>
        </form>
      ) : (
        <form
          onSubmit={codeForm.onSubmit((values) => {
            verify.mutate(values.code);
          })}
          noValidate
        >
          <Stack gap="sm">
            {verify.isError ? (
              <Alert color="red" data-testid="mfa-error">
                {errorText(verify.error, t)}
              </Alert>
            ) : null}
            <Text size="sm" fw={500}>
              {t('fields.code')}
            </Text>
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              aria-label={t('fields.code')}
              {...codeForm.getInputProps('code')}
              data-testid="mfa-code"
            />
            {codeForm.errors.code ? (
              <Text size="xs" c="red">
                {codeForm.errors.code}
              </Text>
            ) : null}
            <Button type="submit" loading={verify.isPending} data-testid="mfa-submit">
              {t('mfa.verify')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component="button" type="button" size="sm" onClick={cancel}>
        {t('mfa.backToSignIn')}
      </Anchor>
    </Stack>
  );
}
