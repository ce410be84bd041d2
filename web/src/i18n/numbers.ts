import type { FormatterModule } from 'i18next';
import { localeOf } from './languages';

const formats = new Map<string, Intl.NumberFormat>();

/** The one number formatter: a number in the reader's digits and separators (Persian digits
 * in Persian, "1,234" in English), up to two decimals. */
export function formatNumber(value: number, language: string): string {
  const locale = localeOf(language);
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    formats.set(locale, format);
  }
  return format.format(value);
}

/** Latin digits in a text (a countdown's clock, "23:58:13") in the locale's own ("۲۳:۵۸:۱۳"
 * for `fa-IR`). */
export function localDigits(text: string, locale: string): string {
  const digits = new Intl.NumberFormat(locale, { useGrouping: false }).format(1234567890);
  if (digits === '1234567890') return text;
  const map = new Map([...'1234567890'].map((latin, i) => [latin, digits[i] ?? latin]));
  return text.replace(/[0-9]/g, (d) => map.get(d) ?? d);
}

/** Persian and Arabic-Indic digits typed by a reader ("۰۹۱۲", "٠٩١٢") as Latin ones: what a phone
 * number, a code or an amount is sent as, whatever keyboard typed it. */
export function latinDigits(text: string): string {
  return text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => {
    const code = d.charCodeAt(0);
    return String(code - (code >= 0x06f0 ? 0x06f0 : 0x0660));
  });
}

/** An amount typed in major units ("12.5", "۱۲٫۵", "7,25") → minor units of a currency with
 * `digits` decimals; null when it is not a number with at most that many decimals. Persian and
 * Arabic-Indic digits and decimal separators read as the number they show (Mantine's number
 * input drops them, so amounts are typed in `MoneyInput`, a text field). */
export function parseAmount(typed: string, digits: number): number | null {
  const text = latinDigits(typed.trim())
    .replace(/[\u066B\u060C,]/g, '.')
    .replace(/\u066C/g, '');
  const pattern = digits > 0 ? new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`) : /^\d+$/;
  if (!pattern.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** Minor units as the text an amount field starts with: `1250`, 2 → "12.50"; `500`, 0 → "500". */
export function amountText(minor: number, digits: number): string {
  return (minor / 10 ** digits).toFixed(digits);
}

/** Minor units as an amount field's text in the reader's digits and decimal separator:
 * `1250`, 2, `fa-IR` → "۱۲٫۵۰" (what `parseAmount` reads back); Latin locales get `amountText`. */
export function localAmountText(minor: number, digits: number, locale: string): string {
  return localVersion(amountText(minor, digits), locale);
}

/** A version ("0.1.0") in the locale's digits. Where those are not Latin, its dots become the
 * locale's decimal separator too: Persian writes "۰٫۱٫۰", its zero being a dot of its own. */
export function localVersion(text: string, locale: string): string {
  const digits = localDigits(text, locale);
  if (digits === text) return text;
  const separator = new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  return digits.replaceAll('.', separator);
}

/**
 * i18next's formatter: every number put into a text ("Seats left: {{count}}") goes through
 * `formatNumber`, so no page shows Latin digits beside Persian words. Texts keep plain
 * placeholders; the plural form still follows the number itself.
 */
export const numberFormatter: FormatterModule = {
  type: 'formatter',
  init: () => undefined,
  add: () => undefined,
  addCached: () => undefined,
  format: (value: unknown, _format, language) => (typeof value === 'number' && Number.isFinite(value) ? formatNumber(value, language ?? 'gb') : (value as string)),
};
