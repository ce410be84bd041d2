import i18n from 'i18next';
import { setupI18n } from '.';
import { amountText, formatNumber, latinDigits, localAmountText, localDigits, localVersion, parseAmount } from './numbers';

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

describe('amounts as typed', () => {
  it('reads Persian and Arabic-Indic digits and separators as the number they show', () => {
        expect(parseAmount('۱۲٫۵', 2)).toBe(1250);
    expect(parseAmount('7', 2)).toBe(700);
    expect(parseAmount('7,25', 2)).toBe(725);
    expect(parseAmount('۵۰۰', 0)).toBe(500);
  });

  it('converts major to minor units by the currency\'s digits (what every money field sends)', () => {
    expect(parseAmount('19.99', 2)).toBe(1999);
    expect(parseAmount('1500', 0)).toBe(1500);
    expect(parseAmount('1.234', 3)).toBe(1234);
  });

  it('writes minor units back as the text a field starts with, and reads it again', () => {
    expect(amountText(1250, 2)).toBe('12.50');
    expect(amountText(500, 0)).toBe('500');
    expect(parseAmount(amountText(1999, 2), 2)).toBe(1999);
  });

  it('writes an amount field in Persian digits for a Persian reader, and reads it again', () => {
    expect(localAmountText(1250, 2, 'fa-IR')).toBe('۱۲٫۵۰');
    expect(localAmountText(1250, 2, 'en-GB')).toBe('12.50');
    expect(parseAmount(localAmountText(1999, 2, 'fa-IR'), 2)).toBe(1999);
  });

  it('refuses what is not an amount of the currency', () => {
    expect(parseAmount('', 2)).toBeNull();
    expect(parseAmount('1.234', 2)).toBeNull();
    expect(parseAmount('1.5', 0)).toBeNull();
    expect(parseAmount('-3', 2)).toBeNull();
    expect(parseAmount('abc', 2)).toBeNull();
  });
});
