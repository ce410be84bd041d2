// End-to-end: what fans and admins see every day. A fan opens a receipt from the menu (and
// it prints without the shell); an admin finds orders by buyer and state and downloads
// them as CSV; the dashboard shows the period's sales against the previous period.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, literally, PASSWORD } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'bea', fan: 'ann', other: 'ben' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

/** The fan's name on their orders, and what an admin types to find them: the fan's address up
 * to its "@" (no other buyer's). */
const buyer = fullName(ACCOUNTS.fan);
const byAddress = ACCOUNTS.fan.email.replace(/@.*/, '@');

const TITLE = 'Harbour Lights';

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  const billing = await admin('PUT', '/api/v1/payments/billing', {
    address: { name: 'Harbour Music Ltd', email: 'billing@harbour.test', address: '1 Quay', city: 'Bristol', country: 'GB', company: '' },
    bank: {},
  });
  assert.equal(billing.status, 200, JSON.stringify(billing.json));
  const concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() + 2 * 86_400_000) });
  await buyTicket(await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD), concert, buyer);
  await buyTicket(await apiSession(suite.server.url, ACCOUNTS.other.email, PASSWORD), concert, fullName(ACCOUNTS.other));
});

describe('What fans and admins see every day', () => {
  test('a fan opens a receipt from the menu and it prints without the shell', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.fan);
    await page.locator('[data-menu-key="my-orders"]').first().click();
    await page.waitForURL(/\/my-orders$/);
    await page.getByTestId('open-receipt').click();
    await page.waitForURL(/\/receipts\//);
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor();
    assert.match(await receipt.innerText(), /Harbour Music Ltd/);
    assert.equal(await page.getByTestId('receipt-buyer').innerText(), ACCOUNTS.fan.email);
    assert.equal(await page.getByTestId('receipt-total').innerText(), '€9.00');
    assert.match(await page.getByTestId('receipt-number').innerText(), /Order number [0-9a-f-]{36}/);

    await page.emulateMedia({ media: 'print' });
    const shown = (selector) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).visibility === 'visible' && getComputedStyle(el).display !== 'none');
    assert.equal(await shown('[data-testid="receipt"]'), true);
    assert.equal(await shown('[data-testid="receipt-print"]'), false, 'the print button is not printed');
    assert.equal(await shown('header'), false, 'the top bar is not printed');
    assert.equal(await shown('[data-menu-key="my-orders"]'), false, 'the menu is not printed');
    await page.emulateMedia({ media: 'screen' });
    await finish(b);
  });

  test('an admin finds orders by buyer and state and downloads them as CSV', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/payments/orders`);
    const rows = page.getByTestId('orders-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 2);

    await page.getByTestId('orders-search').fill(byAddress);
    await page.getByTestId('orders-count').filter({ hasText: 'Orders found: 1' }).waitFor();
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), new RegExp(`${literally(buyer)}\\s+${literally(ACCOUNTS.fan.email)}`));

    await page.getByTestId('orders-status').click();
    await page.getByRole('option', { name: 'Complete' }).click();
    await page.getByTestId('orders-count').filter({ hasText: 'Orders found: 1' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('orders-export').click()]);
    assert.match(download.suggestedFilename(), /^encore-orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8').trim().split('\r\n');
    assert.equal(csv.length, 2, 'the header and the one matching order');
    assert.match(csv[0], /^order,created_at,paid_at,status,buyer_name,buyer_email/);
    assert.ok(csv[1].includes(`,complete,${buyer},${ACCOUNTS.fan.email},Harbour Lights band — Harbour Lights,9.00,EUR,test,`), csv[1]);

    // No order of the fan's was refunded.
    await page.reload();
    await page.getByTestId('orders-search').fill(byAddress);
    await page.getByTestId('orders-status').click();
    await page.getByRole('option', { name: 'Refunded' }).click();
    await page.getByTestId('empty-state').waitFor();
    await finish(b);
  });

  test('the dashboard shows the period\'s sales against the previous period', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    const figures = page.getByTestId('sales-figures');
    await figures.getByTestId('sales-tickets-value').filter({ hasText: '2' }).waitFor();
    assert.equal(await figures.getByTestId('sales-revenue-EUR-value').innerText(), '€18.00');
    // Nothing was sold in the 30 days before: the change is "new", not a percentage.
    const change = figures.getByTestId('sales-tickets-change');
    assert.equal(await change.getAttribute('data-tone'), 'new');
    assert.match(await figures.getByTestId('sales-tickets').innerText(), /Previous period: 0/);

    // A custom period that ends before today's sales has none of them, and the sales then
    // count in its previous period: a fall of 100 %.
    await figures.getByText('Custom').click();
    const day = (offset) => new Date(Date.now() + offset * 86_400_000).toLocaleDateString('en-CA');
    await page.getByTestId('sales-from').fill(day(1));
    await page.getByTestId('sales-to').fill(day(1));
    await figures.getByTestId('sales-tickets-value').filter({ hasText: '0' }).waitFor();
    assert.equal(await change.getAttribute('data-tone'), 'down');
    assert.equal(await change.innerText(), '-100%');
    await page.getByTestId('recent-orders').getByText(buyer).waitFor();
    await finish(b);
  });
});
