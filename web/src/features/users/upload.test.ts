import { ClientError } from '../../lib/errors';
import { checkAvatarFile } from './upload';

const file = (type: string, size = 10): File => new File([new Uint8Array(size)], 'photo', { type });

describe('checkAvatarFile', () => {
  it('takes the types the server re-encodes', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      expect(() => checkAvatarFile(file(type))).not.toThrow();
    }
  });

  it('refuses a GIF and other types before uploading', () => {
    for (const type of ['image/gif', 'text/plain', '']) {
      expect(() => checkAvatarFile(file(type))).toThrow(ClientError);
    }
  });

  it('refuses a file over 2 MiB', () => {
    expect(() => checkAvatarFile(file('image/png', 2 * 1024 * 1024 + 1))).toThrow('too large');
  });
});
