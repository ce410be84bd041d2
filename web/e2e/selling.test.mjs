// End-to-end: pay what you want and free tickets (issue 31). An admin makes a "Pay what you
// can" tier (suggested 10.00, minimum 2.00) in the tier editor at 1280×800 in English; a fan
// reading Persian on a 390×844 phone names 25.50 on the concert's page in Persian digits
// (۲۵٫۵۰), pays it with the test card, and her receipt shows 25.50 in Persian digits; a fan in English at 390 px names 0
// once the minimum is 0, and "Pay now" takes her straight to her paid order, no card asked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { cast, e2eSuite, inPersian, latinDigits, layoutProblems, openTiers, payToReceipt, screenshot, settle } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'sara', freeFan: 'ben' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const TITLE = 'Open Doors Session';
const TIER = 'Pay what you can';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MIN_TAP = 44;
/** 25.50 € as a Persian keyboard types it (Persian digits, the Arabic decimal separator), and
 * as a Persian reader sees it, from the same Intl the app uses. */
const PERSIAN_TYPED = '۲۵٫۵۰';
const PERSIAN_AMOUNT = new Intl.NumberFormat('fa-IR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(25.5);
const bare = (text) => text.replaceAll('\u200e', '').replaceAll('\u200f', '').trim();

let concert;
let admin;

before(async () => {
  ({ admin, concert } = await suite.adminWithConcert(ACCOUNTS.admin, TITLE));
});

describe('Pay what you want (issue 31)', () => {
  test('1280×800, English: an admin makes a pay-what-you-want tier with a suggested price and a minimum', async () => {
    const b = await browserAs(ACCOUNTS.admin, DESKTOP);
    const { page } = b;
    const panel = await openTiers(page, suite.server.url, TITLE);

    await panel.getByTestId('tier-add').click();
    const form = panel.getByTestId('tier-form');
    await form.getByTestId('tier-name').fill(TIER);
    await form.getByTestId('tier-pwyw').check();
    await form.getByTestId('tier-price').fill('10');
    await form.getByTestId('tier-minimum').fill('2');
    await settle(page);
    await screenshot(page, 'selling-gb-admin-pwyw-form');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems with the tier form open');
    await form.getByTestId('tier-save').click();
    await form.waitFor({ state: 'detached' });
    const tier = panel.getByTestId('tier-row').filter({ hasText: TIER });
    await tier.waitFor();
    assert.equal((await tier.getByTestId('tier-row-price').innerText()).trim(), '€10.00');
    assert.equal((await tier.getByTestId('tier-pwyw-badge').innerText()).trim(), 'Pay what you want, from €2.00');

    const tiers = (await admin('GET', `/api/v1/events/${concert.id}/tiers`)).json.payload;
    const made = tiers.find((t) => t.name === TIER);
    assert.equal(made.price, 1000);
    assert.equal(made.minimumPrice, 200);
    await finish(b);
  });

  test('390×844, Persian: a fan names 25.50 in Persian digits, pays it, and her receipt shows it in Persian digits', async () => {
    const b = await browserAs(ACCOUNTS.fan, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/concerts/${concert.id}`);
    const tier = page.getByTestId('concert-tier').filter({ hasText: TIER });
    await tier.waitFor();
    const amount = tier.getByTestId('tier-amount');
    // Below the minimum, the button waits for a good amount.
    await amount.fill('۱');
    assert.equal(await tier.getByTestId('tier-buy').isDisabled(), true);
    await amount.fill(PERSIAN_TYPED);
    assert.equal(await tier.getByTestId('tier-buy').isDisabled(), false);
    await tier.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'selling-ir-phone-concert-pwyw');
    const found = (await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((p) => `concert: ${p}`);
    await tier.getByTestId('tier-buy').click();
    await tier.getByTestId('tier-in-cart').waitFor();

    await page.goto(`${suite.server.url}/cart`);
    const total = page.getByTestId('cart-total');
    await total.waitFor();
    assert.equal(bare(await total.innerText()), bare(PERSIAN_AMOUNT));
    await settle(page);
    await screenshot(page, 'selling-ir-phone-cart');
    found.push(...(await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((p) => `cart: ${p}`));
    await payToReceipt(page, suite.server.url);
    assert.equal(bare(await page.getByTestId('receipt-total').innerText()), bare(PERSIAN_AMOUNT));
    await settle(page);
    await screenshot(page, 'selling-ir-phone-receipt');
    assert.deepEqual(await page.evaluate(latinDigits), [], 'Latin digits on the receipt');
    assert.deepEqual([...new Set(found)], [], 'phone layout problems');
    await finish(b);
  });

  test('390 px, English: with a minimum of 0, a fan names 0 and gets her ticket without paying', async () => {
    const tiers = (await admin('GET', `/api/v1/events/${concert.id}/tiers`)).json.payload;
    const made = tiers.find((t) => t.name === TIER);
    const changed = await admin('PUT', `/api/v1/events/${concert.id}/tiers/${made.id}`, { minimumPrice: 0 });
    assert.equal(changed.status, 200, JSON.stringify(changed.json));

    const b = await browserAs(ACCOUNTS.freeFan, PHONE);
    const { page } = b;
    await page.goto(`${suite.server.url}/concerts/${concert.id}`);
    const tier = page.getByTestId('concert-tier').filter({ hasText: TIER });
    await tier.waitFor();
    assert.match(await tier.innerText(), /Pay what you want, from €0\.00/);
    await tier.getByTestId('tier-amount').fill('0');
    await tier.getByTestId('tier-buy').click();
    await tier.getByTestId('tier-in-cart').waitFor();
    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('cart-total').waitFor();
    assert.equal((await page.getByTestId('cart-total').innerText()).trim(), '€0.00');
    await page.getByTestId('pay-now').click();
    // No payment page: straight to the paid order.
    await page.waitForURL(/\/checkout-success\?order=/);
    await page.getByTestId('order-status').waitFor();
    const order = new URL(page.url()).searchParams.get('order');
    const shown = (await admin('GET', `/api/v1/orders/${order}`)).json.payload;
    assert.equal(shown.status, 'fulfilled');
    assert.equal(shown.provider, 'free');
    assert.equal(shown.total, 0);
    await settle(page);
    await screenshot(page, 'selling-gb-phone-free-order');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: MIN_TAP }), [], 'phone layout problems on the paid order');
    await finish(b);
  });
});
