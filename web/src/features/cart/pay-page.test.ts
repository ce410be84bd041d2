// The test checkout page's formatters: the server inlines src/commerce/pay.js into its
// hosted page (pay.html); these are that file's exports.
import { caretAfterDigits, formatCardNumber, formatExpiry, formatMoney } from '../../../../src/commerce/pay.js';
import { formatPrice } from './model';

describe('card number as typed', () => {
  it('groups the digits by four', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242')).toBe('4242');
  });

  it('drops anything but digits and regroups a pasted or edited number', () => {
    expect(formatCardNumber('4242-4242 42a42 4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 424 4242')).toBe('4242 4244 242');
    expect(formatCardNumber('')).toBe('');
  });

  it('stops at 19 digits', () => {
    expect(formatCardNumber('1'.repeat(25))).toBe('1111 1111 1111 1111 111');
  });
});

describe('expiry as typed', () => {
  it('puts the slash after the month', () => {
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('12/34')).toBe('12/34');
    expect(formatExpiry('12345')).toBe('12/34');
  });

  it('pads a month that can only be one digit', () => {
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('0')).toBe('0');
  });

  it('keeps a slash the buyer typed, and lets them delete it', () => {
    expect(formatExpiry('12/')).toBe('12/');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('ab')).toBe('');
  });
});

describe('caret after reformatting', () => {
  it('stays after the same digit when spaces are added before it', () => {
    // "42424" typed to "4242 4": the caret after the fifth digit is at index 6.
    expect(caretAfterDigits('4242 4', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('12/34', 3)).toBe(4);
    expect(caretAfterDigits('12/34', 0)).toBe(0);
  });
});

describe('amounts on the page', () => {
  it('are a currency in the reader\'s locale, never "EUR ۶۲٫۴۷"', () => {
    expect(formatMoney(6247, 'EUR', 2, 'fa-IR').replaceAll('\u200e', '')).toBe('€۶۲٫۴۷');
    expect(formatMoney(6247, 'EUR', 2, 'en-GB')).toBe('€62.47');
    expect(formatMoney(6247, 'EUR', 2, 'es')).toBe('62,47\u00a0€');
  });

  it('read as the app writes prices', () => {
    for (const locale of ['en-GB', 'pt-BR', 'es', 'zh-CN', 'fa-IR']) {
      expect(formatMoney(150000, 'JPY', 0, locale)).toBe(formatPrice(150000, 'JPY', locale));
      expect(formatMoney(1234, 'KWD', 3, locale)).toBe(formatPrice(1234, 'KWD', locale));
    }
  });
});
