import i18n from 'i18next';
import type { BackendModule, ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_STORAGE_KEY } from '../lib/constants';
import {
  DEFAULT_LANGUAGE,
  NAMESPACES,
  fromBrowserLanguage,
  isLanguageCode,
  languageInfo,
} from './languages';
import type { LanguageCode } from './languages';
import { numberFormatter } from './numbers';

/** English ships with the first page; the other languages load when chosen. */
const english = import.meta.glob<ResourceKey>('../locales/gb/*.json', { eager: true, import: 'default' });
const others = import.meta.glob<ResourceKey>(['../locales/*/*.json', '!../locales/gb/*.json'], { import: 'default' });

const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const loader = others[`../locales/${language}/${namespace}.json`];
    if (!loader) {
      callback(null, {});
      return;
    }
    loader().then(
      (data) => {
        callback(null, data);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), null);
      },
    );
  },
};

function englishResources(): Record<string, ResourceKey> {
  const resources: Record<string, ResourceKey> = {};
  for (const [path, data] of Object.entries(english)) {
    const namespace = /\/([^/]+)\.json$/.exec(path)?.[1];
    if (namespace) resources[namespace] = data;
  }
  return resources;
}

export function storedLanguage(): LanguageCode {
  try {
    const saved = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguageCode(saved)) return saved;
  } catch {
    // storage unavailable: fall through
  }
  return typeof navigator === 'undefined' ? DEFAULT_LANGUAGE : fromBrowserLanguage(navigator.language);
}

export function applyDocumentLanguage(code: string): void {
  const info = languageInfo(code);
  document.documentElement.lang = info.htmlLang;
  document.documentElement.dir = info.dir;
}

export async function setupI18n(language: LanguageCode = storedLanguage()): Promise<typeof i18n> {
  if (i18n.isInitialized) return i18n;
  i18n.on('languageChanged', applyDocumentLanguage);
  await i18n
    .use(lazyBackend)
    .use(numberFormatter)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: ['gb', 'br', 'es', 'cn', 'ir'],
      ns: [...NAMESPACES],
      defaultNS: 'common',
      partialBundledLanguages: true,
      resources: { [DEFAULT_LANGUAGE]: englishResources() },
      // alwaysFormat: every placeholder passes the formatter (numbers in the reader's digits).
      interpolation: { escapeValue: false, alwaysFormat: true },
      react: { useSuspense: true },
      returnNull: false,
    });
  applyDocumentLanguage(i18n.language);
  // Kept from here on: a language someone chose (or their account's), not the one this
  // browser was detected in, so that a new device can start from the account's.
  i18n.on('languageChanged', keepLanguage);
  return i18n;
}

/** Keeps `code` as this device's language. A choice is kept the moment it is made, before its
 * translations have loaded (`languageChanged` comes after them): a reload right then keeps it. */
export function keepLanguage(code: string): void {
  try {
    if (isLanguageCode(code)) localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // storage unavailable: the choice lasts for this visit
  }
}

/** Whether this device keeps a language of its own choosing (see [`setupI18n`]). */
export function languageChosenHere(): boolean {
  try {
    return isLanguageCode(localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return false;
  }
}

export default i18n;
