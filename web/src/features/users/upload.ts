import { ClientError } from '../../lib/errors';

/** What the server re-encodes (GIF is not among them: re-encoding would lose its animation). */
export const ALLOWED_AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/** Client-side pre-check; the server checks the content itself (415 "File type is incorrect"). */
export function checkAvatarFile(file: File): void {
  if (!ALLOWED_AVATAR_TYPES.includes(file.type)) {
    throw new ClientError('errors.fileType', 'File type is incorrect');
  }
  if (file.size > MAX_AVATAR_BYTES) {
    throw new ClientError('errors.fileTooLarge', 'The file is too large (2 MiB at most).');
  }
}
