// The test checkout page's script: formats the card number and expiry as they are typed
// and posts the payment. Inlined into pay.html under the page's nonce (a module: its
// exports are for the web app's unit tests, web/src/features/cart/pay-page.test.ts).

/** Card numbers have at most 19 digits; shown in groups of four. */
const MAX_CARD_DIGITS = 19;

/** `4242424242424242` → `4242 4242 4242 4242`; anything but digits is dropped. */
export function formatCardNumber(raw) {
  const digits = raw.replace(/\D/g, '').slice(0, MAX_CARD_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * `1234` → `12/34`. A first digit that can only start September or later becomes `0N`
 * (`4` → `04`), and a slash typed after the month is kept (`12/`), so typing either way
 * works and deleting the slash is not undone.
 */
export function formatExpiry(raw) {
  let digits = raw.replace(/\D/g, '').slice(0, 4);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  if (digits.length === 2 && raw.trim().endsWith('/')) return `${digits}/`;
  return digits;
}

/** Where the caret goes in `formatted` to stay after its `digitsBefore`-th digit. */
export function caretAfterDigits(formatted, digitsBefore) {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    if (/\d/.test(formatted[i])) seen += 1;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

/** Reformats an input in place, keeping the caret after the same digit. */
function reformat(input, format) {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBefore = input.value.slice(0, caret).replace(/\D/g, '').length;
  const formatted = format(input.value);
  if (formatted === input.value) return;
  input.value = formatted;
  // At the end, stay at the end (after a slash the formatter added).
  const at = caret >= input.value.length ? formatted.length : caretAfterDigits(formatted, digitsBefore);
  input.setSelectionRange(at, at);
}

/** `minor` units of `currency` as the reader's locale writes a price (the web app's
 * `formatPrice`): `6247, 'EUR', 2, 'fa-IR'` → `€۶۲٫۴۷`, `'es'` → `62,47 €`. */
export function formatMoney(minor, currency, digits, locale) {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 10 ** digits);
}

const form = typeof document === 'undefined' ? null : document.getElementById('pay');
if (form) {
  // The server writes "EUR 62.47" in the reader's digits; Intl writes the currency as the
  // reader's locale does, in the lines, the total and the Pay button.
  const { currency, digits } = form.dataset;
  const locale = document.documentElement.lang;
  const money = (minor) => formatMoney(Number(minor), currency, Number(digits), locale);
  for (const cell of document.querySelectorAll('[data-minor]')) cell.textContent = money(cell.dataset.minor);
  const pay = form.querySelector('button[type=submit]');
  pay.textContent = pay.textContent.replace(form.dataset.totalText, money(form.dataset.total));
  const number = form.elements.namedItem('cardNumber');
  const expiry = form.elements.namedItem('expiry');
  number.addEventListener('input', () => reformat(number, formatCardNumber));
  expiry.addEventListener('input', () => reformat(expiry, formatExpiry));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const message = document.getElementById('message');
    const button = form.querySelector('button[type=submit]');
    message.textContent = form.dataset.processing;
    button.disabled = true;
    const body = Object.fromEntries(new FormData(form).entries());
    body.token = form.dataset.token;
    body.lang = form.dataset.lang;
    try {
      const response = await fetch(`/api/v1/payments/test/${encodeURIComponent(form.dataset.order)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (answer.success) {
        window.location.assign(answer.payload.redirect);
        return;
      }
      message.textContent = answer.error;
    } catch {
      message.textContent = form.dataset.offline;
    }
    button.disabled = false;
  });
}
