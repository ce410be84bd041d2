import { DAY_IN_FULL, formatDate, formatDateTime, formatDay, formatTime, localeComma } from './dates';
import { localeOf } from './languages';

const AT = '2026-12-01T20:00:00Z';
const WHEN: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' };

describe('dates in the reader’s language', () => {
  it('knows each language’s own comma from Intl', () => {
    expect(localeComma(localeOf('gb'))).toBe(',');
    expect(localeComma(localeOf('ir'))).toBe('،');
  });

  it('joins a Persian date with the Arabic comma, never a Latin one', () => {
    const when = formatDateTime(AT, localeOf('ir'), WHEN);
    expect(when).not.toContain(',');
    expect(when).toContain('،');
    // Intl's own words and digits are kept: the Solar Hijri date, Persian digits.
    expect(when).toContain('آذر');
    expect(when).toContain('۱۴۰۵');
    expect(formatDateTime(AT, localeOf('ir'))).not.toContain(',');
  });

  it('writes every other language exactly as Intl does', () => {
    for (const language of ['gb', 'br', 'es', 'cn']) {
      const locale = localeOf(language);
      expect(formatDateTime(AT, locale, WHEN)).toBe(new Date(AT).toLocaleString(locale, WHEN));
      expect(formatDateTime(AT, locale)).toBe(new Date(AT).toLocaleString(locale));
    }
    expect(formatDateTime(AT, 'en-GB', WHEN)).toBe('Tue, 1 Dec 2026, 20:00');
  });

  // The forms the pages use: notifications and the cart, the outbox, the receipt, My orders
  // and the Users' "created", the Live page's feed and chart, a clock time.
  const PAGE_FORMS: Intl.DateTimeFormatOptions[] = [
    { dateStyle: 'medium', timeStyle: 'short' },
    { dateStyle: 'medium', timeStyle: 'medium' },
    { dateStyle: 'long', timeStyle: 'short' },
    { dateStyle: 'medium' },
    { timeStyle: 'medium' },
    { timeStyle: 'short' },
  ];

  it('writes every form the pages use in Persian with no Latin comma and no Latin digit', () => {
    const locale = localeOf('ir');
    const shown = [...PAGE_FORMS.map((options) => formatDateTime(AT, locale, options)), formatDate(AT, locale), formatTime(AT, locale), formatDateTime(AT, locale)];
    for (const when of shown) {
      expect(when).not.toMatch(/[,0-9]/);
      expect(when).toMatch(/[۰-۹]/);
    }
  });

  it('writes a date alone and a clock time in English as toLocaleDateString and toLocaleTimeString do', () => {
    for (const language of ['gb', 'br', 'es', 'cn']) {
      const locale = localeOf(language);
      expect(formatDate(AT, locale)).toBe(new Date(AT).toLocaleDateString(locale));
      expect(formatDate(AT, locale, { dateStyle: 'medium' })).toBe(new Date(AT).toLocaleDateString(locale, { dateStyle: 'medium' }));
      expect(formatTime(AT, locale)).toBe(new Date(AT).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }));
      expect(formatTime(AT, locale, { timeStyle: 'medium' })).toBe(new Date(AT).toLocaleTimeString(locale, { timeStyle: 'medium' }));
    }
    expect(formatDate(AT, 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' })).toBe('1 Dec 2026');
    expect(formatTime(AT, 'en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })).toBe('20:00');
  });
});

describe('a calendar day as the server counts it', () => {
  it('is written in the reader’s calendar and digits, on the day it names in every zone', () => {
    expect(formatDay('2026-11-27', 'en-GB')).toBe('27 Nov');
    expect(formatDay('2026-11-27', 'en-GB', DAY_IN_FULL)).toBe('Fri 27 Nov');
    const persian = formatDay('2026-11-27', localeOf('ir'));
    expect(persian).toContain('آذر');
    expect(persian).toContain('۶');
    expect(persian).not.toMatch(/[0-9]/u);
    expect(formatDay('2026-11-27', localeOf('ir'), DAY_IN_FULL)).not.toMatch(/[0-9,]/u);
  });
});
