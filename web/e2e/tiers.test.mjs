// End-to-end: selling through ticket tiers (issue 31). An admin adds a "Supporter" tier (a
// description, a higher price) to a concert from Manage events at 1280×800 in English; the
// tier editor fits a 390 px phone in Persian (right to left), where a hidden tier is priced in
// Persian digits (۲۵٫۵۰, 2550 on the server); a fan reading Persian opens the
// concert's page on a 390×844 phone, puts the Supporter tier in her cart, pays with the test
// card, and her receipt names Supporter with its price in Persian digits.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { apiSession, cast, createConcert, e2eSuite, inPersian, latinDigits, layoutProblems, openTiers as openTiersOf, PASSWORD, payToReceipt, screenshot, settle } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', persianAdmin: 'shirin', fan: 'sara' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const TITLE = 'Harbour Lights';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MIN_TAP = 44;
const SUPPORTER = {
  name: 'Supporter',
  description: 'Pay a little more and help the band tour: thank you!',
  typed: '24.50',
  minor: 2450,
};
/** The Supporter price as a Persian reader sees it ("€۲۴٫۵۰"), from the same Intl the app uses. */
const PERSIAN_PRICE = new Intl.NumberFormat('fa-IR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(SUPPORTER.minor / 100);

/** A hidden tier the Persian admin prices on her keyboard: Persian digits and the Arabic
 * decimal separator, shown back in Persian digits. Hidden, it is not on the concert's page. */
const PATRON = {
  name: 'Patron',
  typed: '۲۵٫۵۰',
  minor: 2550,
  shown: new Intl.NumberFormat('fa-IR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(25.5),
};

/** The server's refusal to delete a tier that sold, in Persian (src/i18n/catalog.rs). */
const REFUSED_DELETE = 'بلیت‌های این رده فروخته شده یا در حال پرداخت است: به جای حذف، آن را پنهان کنید.';

let concert;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() + 3 * 86_400_000) });
});

const openTiers = (page) => openTiersOf(page, suite.server.url, TITLE);

/** Layout problems of the page, less the ones of the shell behind an open drawer (its overlay
 * covers them: they are not what is measured here). */
async function problems(page, minTap) {
  return page.evaluate(layoutProblems, { minTap });
}

describe('Ticket tiers (issue 31)', () => {
  test('1280×800, English: an admin adds a Supporter tier with a description and a higher price', async () => {
    const b = await browserAs(ACCOUNTS.admin, DESKTOP);
    const { page } = b;
    const panel = await openTiers(page);
    // The concert's own tier, made with it: the default, at the concert's price.
    const standard = panel.locator('[data-testid="tier-row"][data-default="true"]');
    assert.equal(await standard.count(), 1);
    assert.equal((await standard.getByTestId('tier-row-price').innerText()).trim(), '€9.00');

    await panel.getByTestId('tier-add').click();
    const form = panel.getByTestId('tier-form');
    await form.getByTestId('tier-name').fill(SUPPORTER.name);
    await form.getByTestId('tier-description').fill(SUPPORTER.description);
    await form.getByTestId('tier-price').fill(SUPPORTER.typed);
    await settle(page);
    await screenshot(page, 'tiers-gb-admin-form');
    assert.deepEqual(await problems(page, 0), [], 'layout problems with the tier form open');
    await form.getByTestId('tier-save').click();
    await form.waitFor({ state: 'detached' });

    const supporter = panel.getByTestId('tier-row').filter({ hasText: SUPPORTER.name });
    await supporter.waitFor();
    assert.equal((await supporter.getByTestId('tier-row-price').innerText()).trim(), '€24.50');
    assert.match(await supporter.innerText(), new RegExp(SUPPORTER.description.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal(await supporter.getAttribute('data-default'), null, 'the new tier is not the default');
    assert.equal(await supporter.getAttribute('data-hidden'), null, 'the new tier is listed');
    await settle(page);
    await screenshot(page, 'tiers-gb-admin-list');
    assert.deepEqual(await problems(page, 0), [], 'layout problems with the tiers listed');

    // As the server has it: two tiers, the default unchanged, Supporter at its price.
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const tiers = (await admin('GET', `/api/v1/events/${concert.id}/tiers`)).json.payload;
    assert.deepEqual(
      tiers.map(({ name, price, isDefault, hidden, description }) => ({ name, price, isDefault, hidden, description })),
      [
        { name: 'Standard', price: 900, isDefault: true, hidden: false, description: '' },
        { name: SUPPORTER.name, price: SUPPORTER.minor, isDefault: false, hidden: false, description: SUPPORTER.description },
      ],
    );

    // The concert's page lists both tiers side by side with their prices.
    await page.goto(`${suite.server.url}/concerts/${concert.id}`);
    const listed = page.getByTestId('concert-tier');
    await listed.nth(1).waitFor();
    assert.deepEqual(
      (await listed.allInnerTexts()).map((text) => text.includes(SUPPORTER.name) && text.includes('€24.50')),
      [false, true],
    );
    await listed.nth(1).scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'tiers-gb-concert');
    assert.deepEqual(await problems(page, 0), [], 'layout problems on the concert page');
    await finish(b);
  });

  test('390 px, Persian: the tier editor fits a phone, right to left, in Persian digits', async () => {
    const b = await browserAs(ACCOUNTS.persianAdmin, { ...PHONE, prepare: inPersian });
    const { page } = b;
    const panel = await openTiers(page);
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await panel.getByTestId('tier-row').filter({ hasText: SUPPORTER.name }).waitFor();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-list');
    const found = (await problems(page, MIN_TAP)).map((problem) => `list: ${problem}`);
    found.push(...(await page.evaluate(latinDigits)).map((text) => `list: Latin digits in "${text}"`));

    // The Supporter tier's form, open: every field fits.
    await panel.getByTestId('tier-row').filter({ hasText: SUPPORTER.name }).getByTestId('tier-edit').click();
    const form = panel.getByTestId('tier-form');
    await form.waitFor();
    assert.equal(await form.getByTestId('tier-name').inputValue(), SUPPORTER.name);
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-form');
    found.push(...(await problems(page, MIN_TAP)).map((problem) => `form: ${problem}`));
    await form.getByTestId('tier-save').scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-form-end');
    found.push(...(await problems(page, MIN_TAP)).map((problem) => `form end: ${problem}`));
    assert.deepEqual([...new Set(found)], [], 'phone layout problems in the tier editor');

    // A hidden tier priced on a Persian keyboard (۲۵٫۵۰): 25.50 reaches the server.
    await panel.getByTestId('tier-add').click();
    const added = panel.getByTestId('tier-form');
    await added.getByTestId('tier-name').fill(PATRON.name);
    await added.getByTestId('tier-price').fill(PATRON.typed);
    await added.getByTestId('tier-hidden').check();
    await added.getByTestId('tier-price').evaluate((input) => { input.scrollIntoView({ block: 'center' }); });
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-persian-price');
    await added.getByTestId('tier-save').click();
    await added.waitFor({ state: 'detached' });
    const patron = panel.getByTestId('tier-row').filter({ hasText: PATRON.name });
    await patron.waitFor();
    await patron.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-persian-price-saved');
    assert.equal((await patron.getByTestId('tier-row-price').innerText()).replaceAll('\u200e', '').trim(), PATRON.shown.replaceAll('\u200e', ''));
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const made = (await admin('GET', `/api/v1/events/${concert.id}/tiers`)).json.payload.find((tier) => tier.name === PATRON.name);
    assert.deepEqual({ price: made.price, hidden: made.hidden }, { price: PATRON.minor, hidden: true });
    await finish(b);
  });

  test('390×844, Persian: a fan buys the Supporter tier, and her receipt names it with its price in Persian digits', async () => {
    const b = await browserAs(ACCOUNTS.fan, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/concerts/${concert.id}`);
    const tiers = page.getByTestId('concert-tiers');
    await tiers.waitFor();
    const supporter = tiers.getByTestId('concert-tier').filter({ hasText: SUPPORTER.name });
    assert.match(await supporter.innerText(), new RegExp(PERSIAN_PRICE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\u200e', '\u200e?')));
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-concert');
    await supporter.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-concert-tiers');
    const before = await problems(page, MIN_TAP);
    assert.deepEqual(before, [], 'phone layout problems on the concert page');
    // Only the tier cards sell: no default-tier Add to cart below them.
    assert.equal(await page.getByTestId('event-buy').count(), 0, 'a default-tier Add to cart below the tier cards');

    await supporter.getByTestId('tier-buy').click();
    await supporter.getByTestId('tier-in-cart').waitFor();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-concert-in-cart');
    assert.deepEqual(await problems(page, MIN_TAP), [], 'phone layout problems on the concert page, the tier in the cart');

    await page.goto(`${suite.server.url}/cart`);
    // The test payment page writes the amount as a currency in Persian (€ and Persian
    // digits, as the app does), and its way back to the cart is a 44 px target.
    await page.getByTestId('pay-now').click();
    await page.waitForURL(/\/pay\//);
    const total = page.getByTestId('pay-total');
    await total.waitFor();
    assert.equal((await total.innerText()).replaceAll('\u200e', '').trim(), PERSIAN_PRICE.replaceAll('\u200e', ''));
    assert.ok((await page.locator('button[type=submit]').innerText()).includes(PERSIAN_PRICE.replaceAll('\u200e', '')), 'the Pay button says the amount as the total does');
    const back = await page.getByTestId('pay-back').boundingBox();
    assert.ok(back && back.height >= MIN_TAP, `the Back link is ${back?.height} px tall`);
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-pay');
    assert.deepEqual(await problems(page, MIN_TAP), [], 'phone layout problems on the payment page');
    await page.getByTestId('pay-back').click();
    await page.waitForURL(/\/cart$/);
    const receipt = await payToReceipt(page, suite.server.url);
    const line = receipt.locator('tr').filter({ hasText: SUPPORTER.name });
    assert.equal(await line.count(), 1, 'the receipt has a line for the Supporter tier');
    const text = await line.innerText();
    assert.ok(text.includes(TITLE), `the line names the concert: ${text}`);
    assert.ok(text.replaceAll('\u200e', '').includes(PERSIAN_PRICE.replaceAll('\u200e', '')), `the line's price is ${PERSIAN_PRICE}: ${text}`);
    assert.equal((await page.getByTestId('receipt-total').innerText()).replaceAll('\u200e', '').trim(), PERSIAN_PRICE.replaceAll('\u200e', ''));
    await line.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-receipt');
    assert.deepEqual(await page.evaluate(latinDigits), [], 'Latin digits on the receipt');
    await finish(b);
  });

  test('390 px, Persian: a tier that sold is not deleted, and the server says why in Persian', async () => {
    const b = await browserAs(ACCOUNTS.persianAdmin, { ...PHONE, prepare: inPersian });
    const { page } = b;
    const panel = await openTiers(page);
    const supporter = panel.getByTestId('tier-row').filter({ hasText: SUPPORTER.name });
    // Sara's ticket: one seat taken, in Persian digits.
    assert.match(await supporter.getByTestId('tier-seats').innerText(), /۱/);
    await supporter.getByTestId('tier-delete').click();
    await page.getByTestId('tier-delete-confirm').click();
    const refusal = page.locator('.mantine-Notification-root').filter({ hasText: REFUSED_DELETE });
    await refusal.waitFor();
    await settle(page);
    await screenshot(page, 'tiers-ir-phone-delete-refused');
    assert.equal(await supporter.count(), 1, 'the tier is still listed');
    await finish(b, [/status of 409/]);
  });
});
