/** Form rules shared by the sign-in pages; they return translation keys (namespace auth). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export function validateEmail(value: string): string | null {
  if (!value.trim()) return 'validation.emailRequired';
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? null : 'validation.emailInvalid';
}

export function validatePassword(value: string): string | null {
  if (!value) return 'validation.passwordRequired';
  if (value.length < PASSWORD_MIN) return 'validation.passwordTooShort';
  if (value.length > PASSWORD_MAX) return 'validation.passwordTooLong';
  return null;
}

export function validatePasswordCheck(value: string, password: string): string | null {
  return value === password ? null : 'validation.passwordMismatch';
}

export function validatePhone(value: string): string | null {
  return /^\+[1-9]\d{6,14}$/.test(value.replace(/[\s()-]/g, '')) ? null : 'validation.phoneInvalid';
}

export function validateCode(value: string): string | null {
  return /^\d{6}$/.test(value.trim()) ? null : 'validation.codeInvalid';
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
    password: translated(t, validatePassword),
    passwordCheck: (value: string, values: { password: string }) => check(value, values.password),
  };
}
