import { ClientError } from '../../lib/errors';

/** What the server takes for an artist's picture (it re-encodes each). */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
export const MAX_PICTURE_MIB = 5;

/** Client-side pre-check; the server checks the content itself. */
export function checkPictureFile(file: File): void {
  if (!PICTURE_TYPES.includes(file.type)) {
    throw new ClientError('errors.fileType', 'File type is incorrect');
  }
  if (file.size > MAX_PICTURE_MIB * 1024 * 1024) {
    throw new ClientError('errors.pictureTooLarge', `The file is too large: ${String(MAX_PICTURE_MIB)} MiB at most.`, { size: MAX_PICTURE_MIB });
  }
}
