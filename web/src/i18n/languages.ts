export const LANGUAGES = [
  { code: 'gb', htmlLang: 'en-GB', dir: 'ltr', nativeName: 'English' },
  { code: 'br', htmlLang: 'pt-BR', dir: 'ltr', nativeName: 'Português (Brasil)' },
  { code: 'es', htmlLang: 'es', dir: 'ltr', nativeName: 'Español' },
  { code: 'cn', htmlLang: 'zh-CN', dir: 'ltr', nativeName: '简体中文' },
  { code: 'ir', htmlLang: 'fa-IR', dir: 'rtl', nativeName: 'فارسی' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'gb';
export const NAMESPACES = ['common', 'auth', 'users', 'account', 'dashboard', 'faq', 'events', 'payments', 'player', 'concert', 'stage', 'look', 'orders', 'help', 'room', 'statements', 'tips', 'gifts', 'promo'] as const;

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((language) => language.code === value);
}

export function languageInfo(code: string): (typeof LANGUAGES)[number] {
  return LANGUAGES.find((language) => language.code === code) ?? LANGUAGES[0];
}

/** Maps a browser language tag (navigator.language) to one of ours. */
export function fromBrowserLanguage(tag: string | undefined): LanguageCode {
  const lower = (tag ?? '').toLowerCase();
  if (lower.startsWith('pt')) return 'br';
  if (lower.startsWith('es')) return 'es';
  if (lower.startsWith('zh')) return 'cn';
  if (lower.startsWith('fa')) return 'ir';
  return DEFAULT_LANGUAGE;
}

/** BCP 47 tag for dates and numbers in the chosen language. */
export function localeOf(code: string): string {
  return languageInfo(code).htmlLang;
}
