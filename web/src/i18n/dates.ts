/**
 * Dates and times in the reader's language, through Intl. Where a locale has no pattern of
 * its own for a set of fields (Persian's Solar Hijri calendar has none for a date with its
 * weekday, nor for a date with a time at its default length), ICU joins the pieces with the
 * root locale's Latin ", ": the locale's own comma ("،" in Persian, as its lists write it)
 * takes its place, and everything else stays as Intl wrote it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
const commas = new Map<string, string>();

function formatterFor(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** The comma `locale` writes between the items of a list ("," in English, "،" in Persian),
 * or "" where its lists have none (Chinese units). */
export function localeComma(locale: string): string {
  let comma = commas.get(locale);
  if (comma === undefined) {
    const list = new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(['a', 'b', 'c']);
    // Between "a" and "b", less spaces and direction marks ("،\u200f " in Persian).
    comma = list.slice(1, list.indexOf('b')).replace(/[\s\u200e\u200f\u061c]/gu, '');
    commas.set(locale, comma);
  }
  return comma;
}

/** What `Date.prototype.toLocaleString` shows with no options. */
const DATE_AND_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };

/** `value` (a Date, an ISO string or ms since the epoch) as `Intl.DateTimeFormat` writes it
 * for `locale` with `options` (by default, as `toLocaleString` does), its joining commas in
 * the locale's own. */
export function formatDateTime(value: Date | string | number, locale: string, options: Intl.DateTimeFormatOptions = DATE_AND_TIME): string {
  const parts = formatterFor(locale, options).formatToParts(new Date(value));
  const comma = localeComma(locale);
  return parts.map((part) => (part.type === 'literal' && comma !== '' ? part.value.replaceAll(',', comma) : part.value)).join('');
}

/** What `Date.prototype.toLocaleDateString` shows with no options. */
const DATE_ONLY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric' };

/** `value`'s date alone, as `toLocaleDateString` writes it (by default with no options),
 * through `formatDateTime`. */
export function formatDate(value: Date | string | number, locale: string, options: Intl.DateTimeFormatOptions = DATE_ONLY): string {
  return formatDateTime(value, locale, options);
}

/** A clock time (hours and minutes: "19:45", Persian "۱۹:۴۵") through `formatDateTime`, or
 * as `options` ask (`{ timeStyle: 'medium' }` for seconds too). */
export function formatTime(value: Date | string | number, locale: string, options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' }): string {
  return formatDateTime(value, locale, options);
}

/** A day with its weekday, "Fri 27 Nov" (a chart's tooltip). */
export const DAY_IN_FULL: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };

/** A calendar day as the server counts them (`2026-11-27`, a day in UTC) in the reader's
 * calendar and digits: by default "27 Nov", Persian "۶ آذر"; `options` for more
 * (`{ weekday: 'short', day: 'numeric', month: 'short' }`: "Fri 27 Nov"). */
export function formatDay(day: string, locale: string, options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' }): string {
  return formatDateTime(`${day.slice(0, 10)}T00:00:00Z`, locale, { ...options, timeZone: 'UTC' });
}
