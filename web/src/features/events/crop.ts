/** A rectangle of the source picture, in its pixels (react-easy-crop's `croppedAreaPixels`). */
export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Concert pictures are framed 16:9: the cards and the concert page show that frame. */
export const IMAGE_ASPECT = 16 / 9;
/** Wider than any place that shows it; keeps the upload under the server's 5 MiB. */
export const MAX_IMAGE_WIDTH = 1920;

/** The output's size: the cropped area's, scaled down (never up) to `maxWidth`. */
export function cropOutputSize(area: CropArea, maxWidth = MAX_IMAGE_WIDTH): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / area.width);
  return { width: Math.max(1, Math.round(area.width * scale)), height: Math.max(1, Math.round(area.height * scale)) };
}

/** The cropped file's type: the source's when the server takes it, else JPEG. */
export function cropOutputType(sourceType: string): string {
  return sourceType === 'image/png' || sourceType === 'image/webp' ? sourceType : 'image/jpeg';
}

/** The cropped file's name: the source's with the output type's extension. */
export function cropFileName(sourceName: string, type: string): string {
  const base = sourceName.replace(/\.[^./\\]+$/, '') || 'image';
  const extension = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  return `${base}.${extension}`;
}

/** The picture's size in pixels, or null when the browser cannot read the file at `url` as a
 * picture (whatever its name says). */
export async function pictureSize(url: string): Promise<{ width: number; height: number } | null> {
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
    return image.naturalWidth > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : null;
  } catch {
    return null;
  }
}

/** The largest `aspect` frame in the middle of a `width`×`height` picture: what the cropper
 * shows first, and what is kept when the picture is saved without moving it. */
export function centredArea(width: number, height: number, aspect = IMAGE_ASPECT): CropArea {
  const frameWidth = Math.min(width, Math.round(height * aspect));
  const frameHeight = Math.min(height, Math.round(frameWidth / aspect));
  return { x: Math.floor((width - frameWidth) / 2), y: Math.floor((height - frameHeight) / 2), width: frameWidth, height: frameHeight };
}

/** Draws `area` of the picture at `url` on a canvas and answers it as a file to upload. */
export async function cropImageFile(source: File, url: string, area: CropArea): Promise<File> {
  const image = new Image();
  image.src = url;
  await image.decode();
  const { width, height } = cropOutputSize(area);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, width, height);
  const type = cropOutputType(source.type);
  const blob = await new Promise<Blob | null>((resolve) => {
    canvas.toBlob(resolve, type, 0.9);
  });
  if (!blob) throw new Error('the canvas gave no image');
  return new File([blob], cropFileName(source.name, type), { type });
}
