import { act } from '@testing-library/react';
import i18n, { setupI18n } from '../../i18n';
import { errorText } from '../../lib/errors';
import { MAX_PICTURE_MIB, checkPictureFile } from './picture';

const file = (type: string, bytes: number): File => new File([new Uint8Array(bytes)], 'picture', { type });

function problem(picked: File): string | null {
  try {
    checkPictureFile(picked);
    return null;
  } catch (error) {
    return errorText(error, i18n.t);
  }
}

describe("an artist's picture, before it is sent", () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  afterEach(async () => {
    await act(() => i18n.changeLanguage('gb'));
  });

  it('is a PNG, JPEG or WebP of at most 5 MiB', () => {
    expect(problem(file('image/webp', 1024))).toBeNull();
    expect(problem(file('image/gif', 1024))).toBe('File type is incorrect');
    expect(problem(file('image/png', MAX_PICTURE_MIB * 1024 * 1024 + 1))).toBe('The file is too large: 5 MiB at most.');
  });

  it('says what is wrong in the reader’s language and digits', async () => {
    await act(() => i18n.changeLanguage('ir'));
    expect(problem(file('image/png', MAX_PICTURE_MIB * 1024 * 1024 + 1))).toBe('فایل بیش از حد بزرگ است: حداکثر ۵ مبی‌بایت.');
  });
});
