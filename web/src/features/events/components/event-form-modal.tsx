import { FileInput, Group, Modal, NumberInput, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyDigits } from '../../cart/model';
import { meQueryOptions } from '../../auth/queries';
import { ProjectPicker } from '../../projects/components/project-picker';
import type { Currency, EventInput, ManagedEvent } from '../model';
import { isoToLocalInput, localInputToIso, toMinorUnits } from '../model';
import { isStaff } from '../../../lib/roles';
import { FormActions } from '../../../app/components/form-actions';

export const CURRENCIES: Currency[] = ['EUR', 'USD', 'GBP', 'BRL', 'CNY', 'IRR', 'JPY'];
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

interface Values {
  projectId: string;
  title: string;
  artistName: string;
  description: string;
  startsAt: string;
  durationMinutes: number | string;
  price: number | string;
  currency: Currency;
  capacity: number | string;
}

export interface EventFormResult {
  input: EventInput;
  image: File | null;
}

/** Create or edit a concert: times are typed in local time and sent as ISO with the zone. */
export function EventFormModal({
  opened,
  event,
  saving,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  event: ManagedEvent | null;
  saving: boolean;
  onClose: () => void;
  onSubmit: (result: EventFormResult) => void;
}): ReactNode {
  const { t } = useTranslation('events');
  const me = useQuery(meQueryOptions());
  const staff = isStaff(me.data?.role);
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: event
      ? {
          projectId: event.projectId,
          title: event.title,
          artistName: event.artistName,
          description: event.description,
          startsAt: isoToLocalInput(event.startsAt),
          durationMinutes: event.durationMinutes ?? '',
          price: event.price / 10 ** currencyDigits(event.currency),
          currency: event.currency,
          capacity: event.capacity ?? '',
        }
      : { projectId: '', title: '', artistName: '', description: '', startsAt: '', durationMinutes: 120, price: '', currency: 'EUR', capacity: '' },
    validate: {
      projectId: (v) => (v ? null : t('form.required')),
      title: (v) => (v.trim() ? null : t('form.required')),
      artistName: (v) => (v.trim() ? null : t('form.required')),
      startsAt: (v) => (v ? null : t('form.required')),
      price: (v) => (v === '' || Number(v) < 0 ? t('form.required') : null),
    },
  });
  const sold = (event?.ticketsSold ?? 0) > 0;
  const optionalNumber = (value: number | string): number | null => (value === '' ? null : Number(value));

  return (
    <Modal opened={opened} onClose={onClose} title={event ? t('form.editTitle') : t('form.createTitle')} size="lg">
      <form
        onSubmit={form.onSubmit((values) => {
          onSubmit({
            image,
            input: {
              projectId: values.projectId,
              title: values.title.trim(),
              artistName: values.artistName.trim(),
              description: values.description,
              startsAt: localInputToIso(values.startsAt),
              durationMinutes: optionalNumber(values.durationMinutes),
              price: toMinorUnits(Number(values.price), currencyDigits(values.currency)),
              currency: values.currency,
              capacity: optionalNumber(values.capacity),
            },
          });
        })}
        data-testid="event-form"
      >
        <Stack>
          <ProjectPicker
            value={form.values.projectId}
            onChange={(projectId) => {
              form.setFieldValue('projectId', projectId);
            }}
            error={form.errors.projectId}
            disabled={event !== null}
            canCreate={staff}
          />
          <TextInput label={t('form.title')} name="title" {...form.getInputProps('title')} />
          <TextInput label={t('form.artist')} name="artistName" {...form.getInputProps('artistName')} />
          <Textarea label={t('form.description')} name="description" autosize minRows={3} {...form.getInputProps('description')} />
          <Group grow>
            <TextInput type="datetime-local" label={t('form.startsAt')} description={t('form.localTime')} name="startsAt" {...form.getInputProps('startsAt')} />
            <NumberInput label={t('form.duration')} name="durationMinutes" min={1} allowDecimal={false} {...form.getInputProps('durationMinutes')} />
          </Group>
          <Group grow>
            <NumberInput label={t('form.price')} name="price" min={0} decimalScale={currencyDigits(form.values.currency)} disabled={sold} {...form.getInputProps('price')} />
            <Select label={t('form.currency')} data={CURRENCIES} allowDeselect={false} disabled={sold} comboboxProps={{ withinPortal: true }} {...form.getInputProps('currency')} />
            <NumberInput label={t('form.capacity')} description={t('form.capacityHint')} name="capacity" min={event?.ticketsSold ?? 0} allowDecimal={false} {...form.getInputProps('capacity')} />
          </Group>
          <FileInput
            label={t('form.image')}
            description={t('form.imageHint')}
            accept={IMAGE_TYPES.join(',')}
            value={image}
            clearable
            error={imageError}
            onChange={(file) => {
              if (file && !IMAGE_TYPES.includes(file.type)) {
                setImageError(t('common:errors.fileType'));
                setImage(null);
                return;
              }
              setImageError(null);
              setImage(file);
            }}
            data-testid="event-image"
          />
          <FormActions
            cancelLabel={t('form.cancel')}
            onCancel={onClose}
            submitLabel={t('form.save')}
            saving={saving}
            submitTestId="event-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}
