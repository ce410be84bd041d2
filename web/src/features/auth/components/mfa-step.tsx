import { Alert, Anchor, Button, Loader, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MutationForm } from '../../../components/mutation-form';
import { errorText } from '../../../lib/errors';
import { clearSession } from '../session';
import { listAuthenticators } from '../api';
import { useAssociatePhone, useCompleteMfa } from '../mutations';
import { latinDigits } from '../../../i18n/numbers';
import { translated, validateCode, validatePhone } from '../validation';

const ANY_DIGITS = /^[0-9\u06F0-\u06F9\u0660-\u0669]+$/;
import { AuthHeading } from './auth-heading';

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
    validate: { phone: translated(t, validatePhone) },
    transformValues: ({ phone }) => ({ phone: latinDigits(phone) }),
  });
  const codeForm = useForm({
    initialValues: { code: '' },
    validate: { code: translated(t, validateCode) },
    transformValues: ({ code }) => ({ code: latinDigits(code) }),
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
      <AuthHeading
        title={t('mfa.title')}
        subtitle={
          needsPhone
            ? t(enrolmentToken ? 'mfa.enrolFromLink' : 'mfa.enrolIntro')
            : t('mfa.codeIntro', { phone: existing?.name ?? phoneForm.values.phone })
        }
      />
      {needsPhone ? (
        <MutationForm
          onSubmit={phoneForm.onSubmit((values) => {
            associate.mutate(values.phone);
          })}
          mutation={associate}
          testId="mfa-associate"
          submitLabel={t('mfa.sendCode')}
        >
          <TextInput
            label={t('fields.phone')}
            withAsterisk
            description={t('mfa.phoneHint')}
            placeholder="+447700900123"
            type="tel"
            autoComplete="tel"
            {...phoneForm.getInputProps('phone')}
            name="phone"
          />
        </MutationForm>
      ) : (
        <MutationForm
          onSubmit={codeForm.onSubmit((values) => {
            verify.mutate(values.code);
          })}
          mutation={verify}
                    submitLabel={t('mfa.verify')}
          testId="mfa"
        >
          <Text size="sm" fw={500}>
            {t('fields.code')}
          </Text>
          <PinInput
            length={6}
            // Digits of any keyboard, Persian ones too (sent as Latin ones).
            type={ANY_DIGITS}
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
        </MutationForm>
      )}
      <Anchor component="button" type="button" size="sm" onClick={cancel}>
        {t('mfa.backToSignIn')}
      </Anchor>
    </Stack>
  );
}
