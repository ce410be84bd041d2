import type { TFunction } from 'i18next';

/** An error raised by the server: its text is shown as is (spec 8). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** An error raised by this app: carries a translation key, the English text and the values
 * the text names (numbers are written in the reader's digits). */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly key: string,
    message: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

export const INVALID_STATE = 'Invalid state.';

export function invalidStateError(): ClientError {
  return new ClientError('errors.invalidState', INVALID_STATE);
}

export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof ClientError) return t(error.key, { ...error.values, ns: 'common', defaultValue: error.message });
  if (error instanceof Error && error.message) return error.message;
  return t('errors.unknown', { ns: 'common' });
}
