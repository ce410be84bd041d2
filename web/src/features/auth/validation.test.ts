import { validateCode, validatePhone } from './validation';

describe('the sign-in rules', () => {
  it('accept a phone number and a code typed on a Persian keyboard', () => {
    expect(validatePhone('+۴۴۷۷۰۰۹۰۰۱۲۳')).toBeNull();
    expect(validatePhone('+44 7700 900123')).toBeNull();
    expect(validatePhone('۰۹۱۲۳۴۵۶۷۸۹')).toBe('validation.phoneInvalid');
    expect(validateCode('۱۲۳۴۵۶')).toBeNull();
    expect(validateCode('123456')).toBeNull();
    expect(validateCode('۱۲۳۴۵')).toBe('validation.codeInvalid');
  });
});
