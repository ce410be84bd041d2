// End-to-end: several tickets in one order (issue 31). At 1280×800 in English a fan raises
// her cart line of Supporter tickets to three with the stepper (the line total follows), pays,
// reads "3 × Supporter" on the receipt, finds two spares in My tickets and gives one. A
// Persian reader's cart line with its stepper at 390×844: right to left, nothing cut.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { apiSession, cast, createConcert, e2eSuite, fullName, inPersian, layoutProblems, PASSWORD, payCart } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', buyer: 'fiona', persianFan: 'sara' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const TITLE = 'Three on the Pier';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let concert;
let supporter;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() + 3 * 86_400_000) });
  const tier = await admin('POST', `/api/v1/events/${concert.id}/tiers`, { name: 'Supporter', price: 2500 });
  assert.equal(tier.status, 201, JSON.stringify(tier.json));
  supporter = tier.json.payload.id;
});

describe('Several tickets in one order (issue 31)', () => {
  test('1280×800, English: three Supporter tickets with the stepper, "3 × Supporter" on the receipt, two spares, one given', async () => {
    const buyer = await apiSession(suite.server.url, ACCOUNTS.buyer.email, PASSWORD);
    assert.equal((await buyer('POST', `/api/v1/cart/${concert.id}?tier=${supporter}`)).status, 200);
    const b = await browserAs(ACCOUNTS.buyer, DESKTOP);
    const { page } = b;
    await page.goto(`${suite.server.url}/cart`);
    const quantity = page.getByTestId('cart-quantity');
    await quantity.waitFor();
    assert.equal(await quantity.innerText(), '1');
    for (const expected of ['2', '3']) {
      await page.getByTestId('cart-quantity-plus').click();
      await page.waitForFunction((n) => document.querySelector('[data-testid="cart-quantity"]')?.textContent === n, expected);
    }
    await page.getByText('€25.00 each').waitFor();
    assert.equal(await page.getByTestId('cart-line-total').innerText(), '€75.00');
    assert.equal(await page.getByTestId('cart-total').innerText(), '€75.00');

    const paid = await payCart(buyer, fullName(ACCOUNTS.buyer));
    assert.equal(paid.json.payload?.status, 'fulfilled', JSON.stringify(paid.json));
    await page.goto(`${suite.server.url}/receipts/${paid.json.payload.order}`);
    await page.getByText('3 × Supporter').waitFor();

    await page.goto(`${suite.server.url}/my-orders`);
    await page.getByTestId('my-ticket').first().waitFor();
    assert.equal(await page.getByTestId('my-ticket').filter({ hasText: TITLE }).count(), 3);
    const spares = page.locator('[data-testid="my-ticket"][data-spare="yes"]');
    assert.equal(await spares.count(), 2);
    const spare = spares.first();
    await spare.getByText('Spare', { exact: true }).waitFor();
    await spare.getByTestId('gift-open').click();
    await spare.getByTestId('gift-email').fill('pal@example.com');
    await spare.getByTestId('gift-send').click();
    await page.getByTestId('pending-gift').waitFor();
    assert.match(await page.getByTestId('pending-gift').innerText(), /pal@example\.com/);
    assert.equal(await page.locator('[data-testid="my-ticket"][data-spare="yes"]').count(), 1);
    await finish(b);
  });

  test('390×844, Persian: the cart line with its stepper reads right to left, nothing cut', async () => {
    const fan = await apiSession(suite.server.url, ACCOUNTS.persianFan.email, PASSWORD);
    assert.equal((await fan('POST', `/api/v1/cart/${concert.id}?tier=${supporter}&quantity=2`)).status, 200);
    const b = await browserAs(ACCOUNTS.persianFan, {
      ...PHONE,
      prepare: inPersian,
    });
    const { page } = b;
    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('cart-quantity-stepper').waitFor();
    assert.equal(await page.getByTestId('cart-quantity').innerText(), '۲');
    await page.getByLabel('یک بلیت بیشتر').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 44 }), []);
    await finish(b);
  });
});
