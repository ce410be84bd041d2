import i18n from 'i18next';
import { setupI18n } from '.';
import { formatNumber, latinDigits, localDigits, localVersion } from './numbers';

describe('numbers in the reader’s digits', () => {
  it('formats with the language’s digits and separators', () => {
    expect(formatNumber(1234, 'gb')).toBe('1,234');
    expect(formatNumber(99, 'ir')).toBe('۹۹');
    expect(formatNumber(2.5, 'br')).toBe('2,5');
  });

  it('writes a version in the locale’s digits, with its separator where the digits are its own', () => {
    expect(localVersion('0.1.0', 'fa-IR')).toBe('۰٫۱٫۰');
    expect(localVersion('19.3.1', 'en-GB')).toBe('19.3.1');
    // Latin digits whose decimal separator is a comma: a version keeps its dots.
    expect(localVersion('19.3.1', 'pt-BR')).toBe('19.3.1');
  });

  it('reads digits typed on a Persian keyboard as Latin ones', () => {
    expect(latinDigits('+۹۸ ۹۱۲ ۳۴۵ ۶۷۸۹')).toBe('+98 912 345 6789');
    expect(latinDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(latinDigits('Opening Night 2')).toBe('Opening Night 2');
    expect(latinDigits(localDigits('+447700900123', 'fa-IR'))).toBe('+447700900123');
  });

  it('puts every number of a text through the formatter', async () => {
    await setupI18n('gb');
    expect(i18n.t('events:seatsLeft', { count: 1234 })).toBe('Seats left: 1,234');
    await i18n.changeLanguage('ir');
    await i18n.loadNamespaces('events');
    const persian = i18n.t('events:seatsLeft', { count: 99 });
    expect(persian).toContain('۹۹');
    expect(persian).not.toMatch(/[0-9]/);
    // Texts, and strings made of digits (already formatted elsewhere), are left as they are.
    expect(i18n.t('events:form.title')).not.toBe('');
    await i18n.changeLanguage('gb');
  });
});
