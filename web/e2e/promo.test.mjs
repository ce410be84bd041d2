// End-to-end: promo codes (issue 31). A manager adds a 20 % code and a code unlocking a
// hidden "Backstage" tier from Manage events → ⋯ → Promo codes at 1280×800 in English; a fan
// types the first in her cart in lower case, sees the discount and the new total, pays with
// the test card, and her receipt and My orders show the code and what it took off. A fan
// reading Persian on a 390×844 phone enters the unlock code in her empty cart (an unknown
// code first, refused in Persian), finds Backstage on the concert's page, buys it, and her
// receipt shows the code; the managers' drawer fits the same phone right to left, where the
// manager makes an amount-off code typed in Persian digits (۲۵٫۵۰ off, 2550 on the server).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { cast, e2eSuite, inPersian, latinDigits, layoutProblems, openManageDrawer, pageApi, payWithCard, screenshot, settle } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', persianAdmin: 'shirin', fan: 'fiona', persianFan: 'sara' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const TITLE = 'Lantern Parade';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MIN_TAP = 44;
const BACKSTAGE = 'Backstage';
/** The codes, with no digits: a code is shown as typed, left to right, in every language. */
const SPRING = 'SPRING';
const UNLOCK = 'LANTERNS';
/** An amount-off code the Persian manager makes: 25.50 typed on a Persian keyboard (Persian
 * digits, the Arabic decimal separator), as her list shows it, and "Amount" in her words. */
const NOWRUZ = 'NOWRUZ';
const PERSIAN_TYPED = '۲۵٫۵۰';
const PERSIAN_AMOUNT = new Intl.NumberFormat('fa-IR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(25.5);
const AMOUNT_IN_PERSIAN = 'مبلغ';
/** The server's refusal of an unknown code, in Persian (src/i18n/catalog.rs). */
const UNKNOWN_IN_PERSIAN = 'این کد تخفیف وجود ندارد.';

let concert;
let admin;

before(async () => {
  ({ admin, concert } = await suite.adminWithConcert(ACCOUNTS.admin, TITLE));
  const tier = await admin('POST', `/api/v1/events/${concert.id}/tiers`, { name: BACKSTAGE, price: 2000, hidden: true });
  assert.equal(tier.status, 201, JSON.stringify(tier.json));
});

const problems = (page, minTap) => page.evaluate(layoutProblems, { minTap });

const openPromo = (page) => openManageDrawer(page, suite.server.url, TITLE, { item: 'manage-promo', panel: 'promo-panel', firstRow: 'promo-add' });

/** Pays the cart from the cart page with the test card: the order's id. */
async function payFromCart(page) {
  await page.getByTestId('pay-now').click();
  await payWithCard(page, '4242 4242 4242 4242');
  await page.waitForURL(/\/checkout-success\?order=/);
  return new URL(page.url()).searchParams.get('order');
}

const plain = (text) => text.replaceAll('\u200e', '').replaceAll('\u200f', '').trim();

describe('Promo codes (issue 31)', () => {
  test('1280×800, English: a manager adds a percentage code and a code unlocking a hidden tier', async () => {
    const b = await browserAs(ACCOUNTS.admin, DESKTOP);
    const { page } = b;
    const panel = await openPromo(page);
    assert.equal(await panel.getByTestId('promo-row').count(), 0);

    await panel.getByTestId('promo-add').click();
    let form = panel.getByTestId('promo-form');
    await form.getByTestId('promo-code').fill(SPRING.toLowerCase());
    await form.getByTestId('promo-percent').fill('20');
    await form.getByTestId('promo-max-uses').fill('5');
    await settle(page);
    await screenshot(page, 'promo-gb-admin-form');
    assert.deepEqual(await problems(page, 0), [], 'layout problems with the code form open');
    await form.getByTestId('promo-save').click();
    await form.waitFor({ state: 'detached' });
    const spring = panel.getByTestId('promo-row').filter({ hasText: SPRING });
    await spring.waitFor();
    assert.equal(await spring.getByTestId('promo-effect').innerText(), '20 % off');
    assert.equal(await spring.getByTestId('promo-uses').innerText(), 'Used 0 of 5 times, 5 left');

    // An unlock code: the tier picker lists the concert's hidden tiers.
    await panel.getByTestId('promo-add').click();
    form = panel.getByTestId('promo-form');
    await form.getByTestId('promo-code').fill(UNLOCK);
    await form.getByText('Unlock tiers').click();
    // Saved without a tier, the form says what is missing and sends nothing.
    await form.getByTestId('promo-save').click();
    await form.getByText('Choose at least one hidden tier.').waitFor();
    await form.getByLabel(BACKSTAGE).check();
    await settle(page);
    await screenshot(page, 'promo-gb-admin-unlock-form');
    await form.getByTestId('promo-save').click();
    await form.waitFor({ state: 'detached' });
    const unlock = panel.getByTestId('promo-row').filter({ hasText: UNLOCK });
    await unlock.waitFor();
    assert.equal(await unlock.getByTestId('promo-effect').innerText(), 'Unlocks 1 hidden tier');
    await settle(page);
    await screenshot(page, 'promo-gb-admin-list');
    assert.deepEqual(await problems(page, 0), [], 'layout problems with the codes listed');

    // As the server has them.
    const codes = (await admin('GET', `/api/v1/events/${concert.id}/promo-codes`)).json.payload;
    assert.deepEqual(
      codes.map(({ code, kind, value, maxUses, tierIds }) => ({ code, kind, value, maxUses, tiers: tierIds.length })).sort((a, b) => a.code.localeCompare(b.code)),
      [
        { code: UNLOCK, kind: 'unlock', value: 0, maxUses: null, tiers: 1 },
        { code: SPRING, kind: 'percent', value: 20, maxUses: 5, tiers: 0 },
      ],
    );
    await finish(b);
  });

  test('1280×800, English: the project lists its concerts\' codes and takes an amount off all of them', async () => {
    const b = await browserAs(ACCOUNTS.admin, DESKTOP);
    const { page } = b;
    await page.goto(`${suite.server.url}/projects`);
    const card = page.getByTestId('project-card').filter({ hasText: `${TITLE} band` });
    await card.getByTestId('project-promo').click();
    const panel = page.getByTestId('project-promo-drawer').getByTestId('promo-panel');
    await panel.getByTestId('promo-row').filter({ hasText: UNLOCK }).waitFor();
    assert.equal(await panel.getByTestId('promo-row').count(), 2);
    await panel.getByTestId('promo-add').click();
    const form = panel.getByTestId('promo-form');
    await form.getByTestId('promo-code').fill('BAND');
    await form.getByText('Amount', { exact: true }).click();
    await form.getByTestId('promo-amount').fill('2');
    await form.getByTestId('promo-save').click();
    await form.waitFor({ state: 'detached' });
    const band = panel.getByTestId('promo-row').filter({ hasText: 'BAND' });
    await band.waitFor();
    assert.equal(plain(await band.getByTestId('promo-effect').innerText()), '€2.00 off');
    assert.match(await band.innerText(), /All concerts/);
    await settle(page);
    await screenshot(page, 'promo-gb-project');
    const project = (await admin('GET', `/api/v1/events/${concert.id}`)).json.payload.projectId;
    const codes = (await admin('GET', `/api/v1/projects/${project}/promo-codes`)).json.payload;
    const made = codes.find((c) => c.code === 'BAND');
    assert.deepEqual({ kind: made.kind, value: made.value, currency: made.currency, eventId: made.eventId }, { kind: 'amount', value: 200, currency: 'EUR', eventId: null });
    // Taken out again: the fans below use the concert's own codes.
    await band.getByTestId('promo-delete').click();
    await page.getByTestId('promo-delete-confirm').click();
    await band.waitFor({ state: 'detached' });
    await finish(b);
  });

  test('1280×800, English: a fan applies the code in her cart, pays, and the receipt shows it', async () => {
    const b = await browserAs(ACCOUNTS.fan, DESKTOP);
    const { page } = b;
    // Without the unlock code the concert has one tier: Backstage is not listed.
    await page.goto(`${suite.server.url}/concerts/${concert.id}`);
    await page.getByText(TITLE).first().waitFor();
    assert.equal(await page.getByTestId('concert-tiers').count(), 0);
    assert.equal((await pageApi(page, 'POST', `/api/v1/cart/${concert.id}`)).status, 200);

    await page.goto(`${suite.server.url}/cart`);
    const input = page.getByTestId('cart-promo-input');
    await input.fill('nope');
    await page.getByTestId('cart-promo-apply').click();
    assert.equal(await page.getByTestId('cart-promo-error').innerText(), 'This promo code does not exist.');
    await input.fill(SPRING.toLowerCase());
    await page.getByTestId('cart-promo-apply').click();
    await page.getByTestId('cart-promo').waitFor();
    assert.equal(await page.getByTestId('cart-promo-code').innerText(), SPRING);
    assert.equal(plain(await page.getByTestId('cart-promo-discount').innerText()), '−€1.80');
    assert.equal(plain(await page.getByTestId('cart-promo-total').innerText()), '€7.20');
    await settle(page);
    await screenshot(page, 'promo-gb-cart');
    assert.deepEqual(await problems(page, 0), [], 'layout problems in the cart with a code');

    const order = await payFromCart(page);
    await page.goto(`${suite.server.url}/receipts/${order}`);
    await page.getByTestId('receipt').waitFor();
    assert.equal(await page.getByTestId('receipt-promo-code').innerText(), SPRING);
    assert.equal(plain(await page.getByTestId('receipt-discount').innerText()), '−€1.80');
    assert.equal(plain(await page.getByTestId('receipt-total').innerText()), '€7.20');
    await settle(page);
    await screenshot(page, 'promo-gb-receipt');

    await page.goto(`${suite.server.url}/my-orders`);
    const mine = page.getByTestId('my-order-promo').first();
    await mine.waitFor();
    assert.equal(plain(await mine.innerText()), `${SPRING} −€1.80`);
    // The code's use is counted.
    const codes = (await admin('GET', `/api/v1/events/${concert.id}/promo-codes`)).json.payload;
    assert.equal(codes.find((c) => c.code === SPRING).usesTaken, 1);
    await finish(b, [/status of 404/]);
  });

  test('390×844, Persian: an unlock code reveals the hidden tier, which she buys, and her receipt shows the code', async () => {
    const b = await browserAs(ACCOUNTS.persianFan, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/cart`);
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    const input = page.getByTestId('cart-promo-input');
    await input.fill('nope');
    await page.getByTestId('cart-promo-apply').click();
    assert.equal(await page.getByTestId('cart-promo-error').innerText(), UNKNOWN_IN_PERSIAN);
    await settle(page);
    await screenshot(page, 'promo-ir-phone-cart-refused');
    assert.deepEqual(await problems(page, MIN_TAP), [], 'phone layout problems in the empty cart, a code refused');

    await input.fill(UNLOCK.toLowerCase());
    await page.getByTestId('cart-promo-apply').click();
    await page.getByTestId('cart-promo-unlock').waitFor();
    await settle(page);
    await screenshot(page, 'promo-ir-phone-cart-unlock');
    assert.deepEqual(await problems(page, MIN_TAP), [], 'phone layout problems in the cart with an unlock code');

    await page.goto(`${suite.server.url}/concerts/${concert.id}`);
    const backstage = page.getByTestId('concert-tier').filter({ hasText: BACKSTAGE });
    await backstage.waitFor();
    await backstage.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'promo-ir-phone-concert-unlocked');
    assert.deepEqual(await problems(page, MIN_TAP), [], 'phone layout problems on the concert page, a tier unlocked');
    await backstage.getByTestId('tier-buy').click();
    await backstage.getByTestId('tier-in-cart').waitFor();

    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('cart-tier').filter({ hasText: BACKSTAGE }).waitFor();
    await settle(page);
    await screenshot(page, 'promo-ir-phone-cart');
    assert.deepEqual(await problems(page, MIN_TAP), [], 'phone layout problems in the cart');
    assert.deepEqual(await page.evaluate(latinDigits), [], 'Latin digits in the cart');
    const order = await payFromCart(page);
    await page.goto(`${suite.server.url}/receipts/${order}`);
    await page.getByTestId('receipt').waitFor();
    assert.equal(await page.getByTestId('receipt-promo-code').innerText(), UNLOCK);
    assert.equal(await page.getByTestId('receipt-discount').innerText(), '—');
    await page.getByTestId('receipt-promo').scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'promo-ir-phone-receipt');
    assert.deepEqual(await page.evaluate(latinDigits), [], 'Latin digits on the receipt');
    const codes = (await admin('GET', `/api/v1/events/${concert.id}/promo-codes`)).json.payload;
    assert.equal(codes.find((c) => c.code === UNLOCK).usesTaken, 1);
    await finish(b, [/status of 404/]);
  });

  test('390 px, Persian: the promo codes drawer fits a phone, right to left, in Persian digits', async () => {
    const b = await browserAs(ACCOUNTS.persianAdmin, { ...PHONE, prepare: inPersian });
    const { page } = b;
    const panel = await openPromo(page);
    const spring = panel.getByTestId('promo-row').filter({ hasText: SPRING });
    await spring.waitFor();
    // One use of five taken, in Persian digits.
    assert.match(await spring.getByTestId('promo-uses').innerText(), /۱.*۵.*۴/);
    await settle(page);
    await screenshot(page, 'promo-ir-phone-list');
    const found = (await problems(page, MIN_TAP)).map((problem) => `list: ${problem}`);
    found.push(...(await page.evaluate(latinDigits)).map((text) => `list: Latin digits in "${text}"`));
    await spring.getByTestId('promo-edit').click();
    const form = panel.getByTestId('promo-form');
    await form.waitFor();
    assert.equal(await form.getByTestId('promo-code').inputValue(), SPRING);
    await settle(page);
    await screenshot(page, 'promo-ir-phone-form');
    found.push(...(await problems(page, MIN_TAP)).map((problem) => `form: ${problem}`));
    await form.getByTestId('promo-save').scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'promo-ir-phone-form-end');
    found.push(...(await problems(page, MIN_TAP)).map((problem) => `form end: ${problem}`));
    assert.deepEqual([...new Set(found)], [], 'phone layout problems in the promo codes drawer');

    // An amount off typed on a Persian keyboard (۲۵٫۵۰): 25.50 reaches the server.
    await panel.getByTestId('promo-add').click();
    const added = panel.getByTestId('promo-form');
    await added.getByTestId('promo-code').fill(NOWRUZ);
    await added.getByText(AMOUNT_IN_PERSIAN, { exact: true }).click();
    await added.getByTestId('promo-amount').fill(PERSIAN_TYPED);
    await settle(page);
    await screenshot(page, 'promo-ir-phone-amount-form');
    await added.getByTestId('promo-save').click();
    await added.waitFor({ state: 'detached' });
    const nowruz = panel.getByTestId('promo-row').filter({ hasText: NOWRUZ });
    await nowruz.waitFor();
    assert.ok(plain(await nowruz.getByTestId('promo-effect').innerText()).includes(plain(PERSIAN_AMOUNT)), 'the amount off, in Persian digits');
    await settle(page);
    await screenshot(page, 'promo-ir-phone-amount-row');
    const codes = (await admin('GET', `/api/v1/events/${concert.id}/promo-codes`)).json.payload;
    const made = codes.find((c) => c.code === NOWRUZ);
    assert.deepEqual({ kind: made.kind, value: made.value }, { kind: 'amount', value: 2550 });
    await finish(b);
  });
});
