import { latinDigits } from '../../i18n/numbers';

/** Form rules shared by the sign-in pages; they return translation keys (namespace auth). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export function validateEmail(value: string): string | null {
  if (!value.trim()) return 'validation.emailRequired';
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? null : 'validation.emailInvalid';
}

export function validatePassword(value: string): string | null {
  if (!value) return 'validation.passwordRequired';
  // Characters as the server counts them (code points), not UTF-16 units.
  const length = [...value].length;
  if (length < PASSWORD_MIN) return 'validation.passwordTooShort';
  if (length > PASSWORD_MAX) return 'validation.passwordTooLong';
  return null;
}

let commonPasswords: ReadonlySet<string> | null = null;
let loading: Promise<ReadonlySet<string>> | null = null;

/** Fetches the server's list of common passwords once (its own chunk); new-password rules use
 * it from then on. */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import('./common-passwords').then((module) => {
    commonPasswords = module.COMMON_PASSWORDS;
    return module.COMMON_PASSWORDS;
  });
  return loading;
}

/** A new password: the length rules, then not one of the common passwords the server refuses
 * (compared lower-cased, as the server does) once the list has arrived. */
export function validateNewPassword(value: string): string | null {
  const rule = validatePassword(value);
  if (rule) return rule;
  return commonPasswords?.has(value.toLowerCase()) ? 'validation.passwordTooCommon' : null;
}

export function validatePasswordCheck(value: string, password: string): string | null {
  return value === password ? null : 'validation.passwordMismatch';
}

/** Digits may be typed on a Persian keyboard: the rules read them as Latin ones, as the forms
 * send them (`latinDigits` in their `transformValues`). */
export function validatePhone(value: string): string | null {
  return /^\+[1-9]\d{6,14}$/.test(latinDigits(value).replace(/[\s()-]/g, '')) ? null : 'validation.phoneInvalid';
}

export function validateCode(value: string): string | null {
  return /^\d{6}$/.test(latinDigits(value).trim()) ? null : 'validation.codeInvalid';
}

/** A rule above as a Mantine validator: the translated text, or null when valid. */
export function translated<A extends unknown[]>(t: (key: string) => string, rule: (...args: A) => string | null) {
  return (...args: A): string | null => {
    const key = rule(...args);
    return key ? t(key) : null;
  };
}

/** Validators for a new password and its check (sign-up, reset, invitation). */
export function newPasswordRules(t: (key: string) => string) {
  const check = translated(t, validatePasswordCheck);
  return {
    password: translated(t, validateNewPassword),
    passwordCheck: (value: string, values: { password: string }) => check(value, values.password),
  };
}
