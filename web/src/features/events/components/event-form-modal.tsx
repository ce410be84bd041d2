import { AspectRatio, Button, FileInput, Group, Image, Loader, Modal, NumberInput, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCrop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyDigits } from '../../cart/model';
import { meQueryOptions } from '../../auth/queries';
import { ProjectPicker } from '../../projects/components/project-picker';
import type { Currency, EventInput, ManagedEvent } from '../model';
import { billedArtist, isoToLocalInput, localInputToIso } from '../model';
import { projectChoicesQueryOptions } from '../../projects/queries';
import { isStaff } from '../../../lib/roles';
import { FormActions } from '../../../components/form-actions';
import { MoneyInput } from '../../../components/money-input';
import { localAmountText, parseAmount } from '../../../i18n/numbers';
import { localeOf } from '../../../i18n/languages';
import type { CropArea } from '../crop';
import { IMAGE_ASPECT, centredArea, cropImageFile, pictureSize } from '../crop';

// react-easy-crop loads with the first picture chosen, not with the app.
const EventImageCropper = lazy(() => import('./event-image-cropper').then((module) => ({ default: module.EventImageCropper })));

export const CURRENCIES: Currency[] = ['EUR', 'USD', 'GBP', 'BRL', 'CNY', 'IRR', 'JPY'];
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

interface Values {
  projectId: string;
  title: string;
  artistName: string;
  description: string;
  startsAt: string;
  durationMinutes: number | string;
  price: string;
  currency: Currency;
  capacity: number | string;
}

/** Object URLs made for the pictures shown, revoked when replaced and when the form goes. */
function useObjectUrls(): (blob: Blob | null, previous: string | null) => string | null {
  const made = useRef(new Set<string>());
  useEffect(() => {
    const urls = made.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
      urls.clear();
    };
  }, []);
  return (blob, previous) => {
    if (previous) {
      URL.revokeObjectURL(previous);
      made.current.delete(previous);
    }
    if (!blob) return null;
    const url = URL.createObjectURL(blob);
    made.current.add(url);
    return url;
  };
}

/** The picture as it will be saved: the frame the cropper shows (or the one applied with "Use
 * this frame"), drawn when asked. */
export type PictureToSave = () => Promise<File>;

/** The concert's picture: pick a file, frame it at 16:9 (the middle, until moved), see the
 * result. Saving the form keeps the frame shown, applied or not. */
function EventImageField({ onChange }: { onChange: (picture: PictureToSave | null) => void }): ReactNode {
  const { t } = useTranslation('events');
  const objectUrl = useObjectUrls();
  const [source, setSource] = useState<{ file: File; url: string } | null>(null);
  const [area, setArea] = useState<CropArea | null>(null);
  const [cropped, setCropped] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [cropping, setCropping] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // What saving keeps: the applied frame's file, else the frame shown, drawn then.
  useEffect(() => {
    if (!source || !area) {
      onChange(null);
      return;
    }
    onChange(() => {
      if (cropped && !cropping) return Promise.resolve(cropped);
      return cropImageFile(source.file, source.url, area).catch((failure: unknown) => {
        setError(t('look:crop.failed'));
        throw failure;
      });
    });
  }, [source, area, cropped, cropping, onChange, t]);

  const choose = (file: File | null): string | null => {
    const url = objectUrl(file, source?.url ?? null);
    setSource(file && url ? { file, url } : null);
    setArea(null);
    setCropped(null);
    setPreviewUrl(objectUrl(null, previewUrl));
    return url;
  };
  const apply = (applied: CropArea): void => {
    if (!source) return;
    setBusy(true);
    cropImageFile(source.file, source.url, applied).then(
      (file) => {
        setBusy(false);
        setCropping(false);
        setArea(applied);
        setCropped(file);
        setPreviewUrl(objectUrl(file, previewUrl));
      },
      () => {
        setBusy(false);
        setError(t('look:crop.failed'));
      },
    );
  };
  return (
    <Stack gap="xs">
      <FileInput
        label={t('form.image')}
        description={t('form.imageHint')}
        accept={IMAGE_TYPES.join(',')}
        value={source?.file ?? null}
        clearable
        error={error}
        onChange={(file) => {
          setError(null);
          if (file && !IMAGE_TYPES.includes(file.type)) {
            setError(t('common:errors.fileType'));
            choose(null);
            setCropping(false);
            return;
          }
          const url = choose(file);
          setCropping(false);
          if (!url) return;
          // A file that is no picture (whatever its name says) is refused here, not framed.
          void pictureSize(url).then((size) => {
            if (size) {
              setArea(centredArea(size.width, size.height));
              setCropping(true);
            } else {
              setError(t('common:errors.fileType'));
              choose(null);
            }
          });
        }}
        data-testid="event-image"
      />
      {cropping && source ? (
        <Suspense fallback={<Loader size="sm" />}>
          <EventImageCropper
            url={source.url}
            busy={busy}
            onApply={apply}
            onAreaChange={setArea}
            onCancel={() => {
              setCropping(false);
              // Nothing framed yet: the picked file is dropped.
              if (!cropped) choose(null);
            }}
          />
        </Suspense>
      ) : null}
      {!cropping && previewUrl ? (
        <Stack gap={6} data-testid="image-preview">
          <AspectRatio ratio={IMAGE_ASPECT} maw={360}>
            <Image src={previewUrl} alt={t('look:crop.preview')} fit="cover" radius="md" />
          </AspectRatio>
          <Group>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconCrop size={14} />}
              onClick={() => {
                setCropping(true);
              }}
              data-testid="image-recrop"
            >
              {t('look:crop.change')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
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
  const { t, i18n } = useTranslation('events');
  const locale = localeOf(i18n.language);
  const me = useQuery(meQueryOptions());
  const staff = isStaff(me.data?.role);
  const projects = useQuery(projectChoicesQueryOptions());
  const projectNameOf = (projectId: string): string => projects.data?.items.find((project) => project.id === projectId)?.name ?? '';
  const [picture, setPicture] = useState<{ save: PictureToSave } | null>(null);
  const [preparing, setPreparing] = useState(false);
  const pictureChanged = useCallback((next: PictureToSave | null) => {
    setPicture(next ? { save: next } : null);
  }, []);
  const form = useForm<Values>({
    initialValues: event
      ? {
          projectId: event.projectId,
          title: event.title,
          artistName: event.artistName,
          description: event.description,
          startsAt: isoToLocalInput(event.startsAt),
          durationMinutes: event.durationMinutes ?? '',
          price: localAmountText(event.price, currencyDigits(event.currency), locale),
          currency: event.currency,
          capacity: event.capacity ?? '',
        }
      : { projectId: '', title: '', artistName: '', description: '', startsAt: '', durationMinutes: 120, price: '', currency: 'EUR', capacity: '' },
    validate: {
      projectId: (v) => (v ? null : t('form.required')),
      title: (v) => (v.trim() ? null : t('form.required')),
      artistName: (v, values) => (billedArtist(v, projectNameOf(values.projectId)) ? null : t('form.required')),
      startsAt: (v) => (v ? null : t('form.required')),
      price: (v, values) => (parseAmount(v, currencyDigits(values.currency)) === null ? t('form.required') : null),
    },
  });
  const sold = (event?.ticketsSold ?? 0) > 0;
  const optionalNumber = (value: number | string): number | null => (value === '' ? null : Number(value));

  return (
    <Modal opened={opened} onClose={onClose} title={event ? t('form.editTitle') : t('form.createTitle')} size="lg">
      <form
        onSubmit={form.onSubmit(async (values) => {
          let image: File | null = null;
          if (picture) {
            setPreparing(true);
            try {
              image = await picture.save();
            } catch {
              // The field says the picture could not be framed; nothing is sent.
              return;
            } finally {
              setPreparing(false);
            }
          }
          onSubmit({
            image,
            input: {
              projectId: values.projectId,
              title: values.title.trim(),
              artistName: billedArtist(values.artistName, projectNameOf(values.projectId)),
              description: values.description,
              startsAt: localInputToIso(values.startsAt),
              durationMinutes: optionalNumber(values.durationMinutes),
              price: parseAmount(values.price, currencyDigits(values.currency)) ?? 0,
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
          <TextInput label={t('form.title')} withAsterisk name="title" {...form.getInputProps('title')} />
          <TextInput
            label={t('form.billedAs')}
            description={t('form.billedAsHint')}
            placeholder={projectNameOf(form.values.projectId)}
            name="artistName"
            {...form.getInputProps('artistName')}
          />
          <Textarea label={t('form.description')} name="description" autosize minRows={3} {...form.getInputProps('description')} />
          <Group grow>
            <TextInput type="datetime-local" label={t('form.startsAt')} withAsterisk description={t('form.localTime')} name="startsAt" {...form.getInputProps('startsAt')} />
            <NumberInput label={t('form.duration')} name="durationMinutes" min={1} allowDecimal={false} {...form.getInputProps('durationMinutes')} />
          </Group>
          <Group grow>
            <MoneyInput label={t('form.price')} withAsterisk name="price" disabled={sold} {...form.getInputProps('price')} value={form.values.price} />
            <Select label={t('form.currency')} withAsterisk data={CURRENCIES} allowDeselect={false} disabled={sold} comboboxProps={{ withinPortal: true }} {...form.getInputProps('currency')} />
            <NumberInput label={t('form.capacity')} description={t('form.capacityHint')} name="capacity" min={event?.ticketsSold ?? 0} allowDecimal={false} {...form.getInputProps('capacity')} />
          </Group>
          <EventImageField onChange={pictureChanged} />
          <FormActions
            cancelLabel={t('form.cancel')}
            onCancel={onClose}
            submitLabel={t('form.save')}
            saving={saving || preparing}
            submitTestId="event-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}
