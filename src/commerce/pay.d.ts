// Types of pay.js's exports, for the web app's unit tests (web/src/features/cart/pay-page.test.ts).
export function formatCardNumber(raw: string): string;
export function formatExpiry(raw: string): string;
export function caretAfterDigits(formatted: string, digitsBefore: number): number;
export function formatMoney(minor: number, currency: string, digits: number, locale: string): string;
