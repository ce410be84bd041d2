import { Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../../lib/roles';
import { validateEmail } from '../../auth/validation';
import type { User } from '../model';
import type { UserFormValues } from '../mutations';
import { FormActions } from '../../../components/form-actions';

interface Props {
  opened: boolean;
  user: User | null;
  roleOptions: Role[];
  canChangeRole: boolean;
  loading: boolean;
  onClose: () => void;
  onSubmit: (values: UserFormValues) => void;
}

/** Create (with invitation) or edit a user; fullname is split into first and last name when sent. */
export function UserFormModal({ opened, user, roleOptions, canChangeRole, loading, onClose, onSubmit }: Props): ReactNode {
  const { t } = useTranslation('users');
  const form = useForm<UserFormValues>({
    initialValues: { fullname: '', email: '', role: 'user', notes: '' },
    validate: {
      fullname: (value) => (value.trim() ? null : t('form.nameRequired')),
      email: (value) => (validateEmail(value) ? t('form.emailInvalid') : null),
    },
  });
  const { setValues, reset } = form;
  useEffect(() => {
    if (!opened) return;
    if (user) setValues({ fullname: user.fullname, email: user.email, role: user.role, notes: user.notes });
    else reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset the form when the modal opens
  }, [opened, user]);
  return (
    <Modal opened={opened} onClose={onClose} title={user ? t('form.editTitle') : t('form.createTitle')} centered>
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="sm">
          <TextInput label={t('form.fullname')} required {...form.getInputProps('fullname')} name="fullname" data-autofocus />
          <TextInput label={t('form.email')} type="email" required {...form.getInputProps('email')} name="email" />
          {!user || canChangeRole ? (
            <Select
              label={t('form.role')}
              withAsterisk
              data={roleOptions.map((role) => ({ value: role, label: t(`common:roles.${role}`) }))}
              allowDeselect={false}
              {...form.getInputProps('role')}
              data-testid="user-role"
            />
          ) : null}
          <Textarea label={t('form.notes')} autosize minRows={2} {...form.getInputProps('notes')} name="notes" />
          {!user ? (
            <Text size="sm" c="dimmed">
              {t('form.inviteHint')}
            </Text>
          ) : null}
          <FormActions
            cancelLabel={t('form.cancel')}
            onCancel={onClose}
            submitLabel={user ? t('form.save') : t('form.createAndInvite')}
            saving={loading}
            submitTestId="user-form-submit"
            mt="sm"
          />
        </Stack>
      </form>
    </Modal>
  );
}
