import { Box, Button, Group, Slider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import Cropper from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import type { CropArea } from '../crop';
import { IMAGE_ASPECT } from '../crop';

/** Frames a picture at 16:9: drag to move, wheel or slider to zoom. Lazy-loaded by the
 * event form (react-easy-crop stays out of the first page load). */
export function EventImageCropper({
  url,
  onApply,
  onAreaChange,
  onCancel,
  busy,
}: {
  url: string;
  onApply: (area: CropArea) => void;
  /** The frame shown, each time it settles (the middle of the picture at first). */
  onAreaChange: (area: CropArea) => void;
  onCancel: () => void;
  busy: boolean;
}): ReactNode {
  const { t } = useTranslation('look');
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<CropArea | null>(null);
  return (
    <Stack gap="xs" data-testid="image-cropper">
      <Text size="sm" fw={500}>
        {t('crop.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('crop.hint')}
      </Text>
      {/* The cropper is absolutely positioned: it fills this box. Left-to-right in every
          language, as the picture is. */}
      <Box pos="relative" h={260} dir="ltr" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden', background: 'var(--mantine-color-dark-8)' }}>
        <Cropper
          image={url}
          crop={crop}
          zoom={zoom}
          aspect={IMAGE_ASPECT}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_, pixels) => {
            setArea(pixels);
            onAreaChange(pixels);
          }}
        />
      </Box>
      <Slider
        min={1}
        max={4}
        step={0.05}
        value={zoom}
        onChange={setZoom}
        label={null}
        thumbLabel={t('crop.zoom')}
        aria-label={t('crop.zoom')}
        data-testid="image-zoom"
      />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" size="xs" onClick={onCancel}>
          {t('crop.cancel')}
        </Button>
        <Button
          size="xs"
          disabled={area === null}
          loading={busy}
          onClick={() => {
            if (area) onApply(area);
          }}
          data-testid="image-crop-apply"
        >
          {t('crop.apply')}
        </Button>
      </Group>
    </Stack>
  );
}
