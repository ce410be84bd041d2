import { COMMON_PASSWORDS } from './common-passwords';

describe('the common passwords the server refuses', () => {
  it('are the server list: 10,000 of them', () => {
    expect(COMMON_PASSWORDS.size).toBe(10_000);
    expect(COMMON_PASSWORDS.has('password')).toBe(true);
    expect(COMMON_PASSWORDS.has('12345678')).toBe(true);
  });
});
