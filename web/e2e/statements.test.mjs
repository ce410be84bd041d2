// End-to-end: artists' statements (issue 31, "Statements and payouts"). An admin makes a
// concert and adds an artist to its project; a fan buys a ticket. The artist (English,
// 1280×800) opens Statements from the menu and sees the sale and the net for this month,
// prints it without the shell and downloads it as CSV; the admin sets the project's own
// platform fee to 10 % (a fee above 100 refused in the server's words) and the artist's net
// falls by it; the admin records a payout of part of what is owed (with a reference) and is
// refused more than is still owed in the server's words, and the artist sees what was paid
// out, what is still owed and the payout; in Persian on a 390×844 phone the same amounts are
// in Persian digits and fit, the admin's payout form too, which reads an amount typed in
// Persian digits as the number it shows; a fan with no project has no
// Statements entry and is refused the page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, inPersian, latinDigits, layoutProblems, PASSWORD, screenshot, settle } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', artist: 'aria', fan: 'fiona' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const TITLE = 'Harbour Lights';
const PROJECT = `${TITLE} band`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const MIN_TAP = 44;
/** This month, as the server counts statements (UTC). */
const PERIOD = new Date().toISOString().slice(0, 7);

/** An amount in minor units as the app writes it in `locale` (the same Intl). */
const money = (minor, locale = 'en-GB') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);

/** The payout recorded: part of the net (8.10 once the fee is 10 %). */
const PAYOUT = { amount: 500, reference: 'TR-1' };
/** The day as the page writes a payout's (the reader's language, digits and calendar:
 * Solar Hijri in Persian). */
const day = (locale = 'en-GB') => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date());

/** Persian and Arabic-Indic digits as Latin ones (what a Persian text's number reads as). */
const latin = (text) => text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - (d.charCodeAt(0) >= 0x06f0 ? 0x06f0 : 0x0660)));

let projectId;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  const concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() + 2 * 86_400_000) });
  projectId = (await admin('GET', `/api/v1/events/${concert.id}`)).json.payload.projectId;
  const member = await admin('POST', `/api/v1/projects/${projectId}/members`, { login: ACCOUNTS.artist.email });
  assert.equal(member.status, 200, JSON.stringify(member.json));
  await buyTicket(await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD), concert, fullName(ACCOUNTS.fan));
});

/** The statement card's amounts, by line. */
async function amounts(page) {
  const card = page.getByTestId('statement-card');
  await card.waitFor();
  const read = async (key) => (await card.getByTestId(`statement-${key}`).innerText()).trim();
  return {
    ticketSales: await read('ticketSales'),
    refunds: await read('refunds'),
    platformFee: await read('platformFee'),
    net: await read('net'),
  };
}

/** What was paid out and what is still owed, by their labels. */
async function paidAndOwed(page) {
  const card = page.getByTestId('statement-card');
  await card.getByTestId('statement-owed').waitFor();
  const line = async (key) => ({
    label: (await card.getByTestId(`statement-${key}-line`).locator('p').first().innerText()).trim(),
    amount: (await card.getByTestId(`statement-${key}`).innerText()).trim(),
  });
  return { paidOut: await line('paidOut'), owed: await line('owed') };
}

/** Latin digits on the page, but in a payout's reference (written as staff typed it). */
async function latinOutsideReferences(page) {
  return (await page.evaluate(latinDigits)).filter((text) => !text.includes(PAYOUT.reference)).map((text) => `Latin digits in "${text}"`);
}

/** The month's payouts as listed under the cards. */
async function payoutRows(page) {
  await page.getByTestId('payouts').waitFor();
  return page.getByTestId('payout').evaluateAll((rows) =>
    rows.map((row) => ({
      date: row.querySelector('[data-testid="payout-date"]').textContent.trim(),
      amount: row.querySelector('[data-testid="payout-amount-text"]').textContent.trim(),
      reference: row.querySelector('[data-testid="payout-reference-text"]')?.textContent.replace(/[\u2068\u2069]/g, '').trim() ?? null,
    })),
  );
}

describe('Artists\' statements (issue 31)', () => {
  test('1280×800, English: the artist opens Statements from the menu, sees the sale and the net, prints and downloads it', async () => {
    const b = await browserAs(ACCOUNTS.artist, DESKTOP);
    const { page } = b;
    await page.locator('[data-menu-key="statements"]').first().click();
    await page.waitForURL(/\/statements/);
    assert.equal(await page.getByTestId('statements-month').getAttribute('data-period'), PERIOD, 'this month first');
    assert.deepEqual(await amounts(page), { ticketSales: money(900), refunds: money(0), platformFee: money(0), net: money(900) });
    assert.equal(await page.getByTestId('statements-project').inputValue(), PROJECT, 'their project, the only one');
    assert.match(await page.getByTestId('statement-net').evaluate((el) => getComputedStyle(el).fontWeight), /^(700|bold)$/, 'the net is bold');
    await settle(page);
    await screenshot(page, 'statements-gb-artist');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems');

    // Printed: the statement and its heading, not the shell nor the pickers.
    await page.emulateMedia({ media: 'print' });
    const shown = (selector) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).visibility === 'visible' && getComputedStyle(el).display !== 'none');
    assert.equal(await shown('[data-testid="statement-card"]'), true);
    assert.equal(await shown('[data-testid="statements-printed-title"]'), true, 'the printed page says whose and which month');
    assert.equal(await shown('header'), false, 'the top bar is not printed');
    assert.equal(await shown('[data-menu-key="statements"]'), false, 'the menu is not printed');
    assert.equal(await shown('[data-testid="statements-print"]'), false, 'the buttons are not printed');
    await screenshot(page, 'statements-gb-print');
    await page.emulateMedia({ media: 'screen' });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('statements-download').click()]);
    assert.equal(download.suggestedFilename(), `encore-statement-${PERIOD}-${projectId.replace(/[^A-Za-z0-9]/g, '')}.csv`);
    const csv = readFileSync(await download.path(), 'utf8').trim().split('\r\n');
    assert.equal(csv.length, 2, 'the header and the one statement (EUR)');
    // The columns up to the net (a server with payouts adds what was paid out and is owed).
    assert.ok(csv[0].startsWith('period,project,currency,ticket_sales,pass_shares,refunds,payment_fees,platform_fee_percent,platform_fee,net'), csv[0]);
    assert.ok(csv[1].startsWith(`${PERIOD},${projectId},EUR,9.00,0.00,0.00,0.00,0,0.00,9.00`), csv[1]);

    // The month before had nothing.
    await page.getByTestId('statements-month-previous').click();
    await page.getByTestId('empty-state').waitFor();
    assert.match(await page.getByTestId('empty-state').innerText(), /Nothing this month/);
    await finish(b);
  });

  test('1280×800, English: the admin sets the project\'s fee to 10 % and the artist\'s net falls by it', async () => {
    const b = await browserAs(ACCOUNTS.admin, DESKTOP);
    const { page } = b;
    await page.goto(`${suite.server.url}/statements?project=${projectId}`);
    const fee = page.getByTestId('platform-fee');
    await fee.waitFor();
    await page.getByTestId('operator-card').waitFor();
    assert.equal((await page.getByTestId('operator-platformFees').innerText()).trim(), money(0));

    // Refused by the server, in its words.
    await fee.getByTestId('platform-fee-input').fill('150');
    await fee.getByTestId('platform-fee-save').click();
    const refusal = fee.getByTestId('platform-fee-error');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /\S/);
    const direct = await (await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD))('PUT', `/api/v1/projects/${projectId}/platform-fee`, { percent: '150' });
    assert.equal(direct.status, 422);
    assert.equal((await refusal.innerText()).trim(), direct.json.error);

    await fee.getByTestId('platform-fee-input').fill('10');
    await fee.getByTestId('platform-fee-save').click();
    await fee.getByTestId('platform-fee-current').filter({ hasText: 'Its own fee: 10%.' }).waitFor();
    await page.getByTestId('statement-net').filter({ hasText: money(810) }).waitFor();
    await page.getByTestId('operator-platformFees').filter({ hasText: money(90) }).waitFor();
    await settle(page);
    await screenshot(page, 'statements-gb-admin');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems');
    await page.getByTestId('operator-card').scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'statements-gb-admin-operator');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems by the operator\'s lines');
    // The refusal above, on purpose.
    await finish(b, [/status of 422/]);

    const artist = await browserAs(ACCOUNTS.artist, DESKTOP);
    await artist.page.goto(`${suite.server.url}/statements`);
    assert.deepEqual(await amounts(artist.page), { ticketSales: money(900), refunds: money(0), platformFee: money(-90), net: money(810) });
    assert.match(await artist.page.getByTestId('statement-platformFee-line').innerText(), /Platform fee \(10%\)/);
    await finish(artist);
  });

  test('1280×800, English: the admin records a payout of part of what is owed; more is refused in the server\'s words; the artist sees it', async () => {
    const b = await browserAs(ACCOUNTS.admin, DESKTOP);
    const { page } = b;
    await page.goto(`${suite.server.url}/statements?project=${projectId}`);
    const card = page.getByTestId('statement-card');
    await card.getByTestId('statement-net').filter({ hasText: money(810) }).waitFor();
    assert.equal(await page.getByTestId('payouts').count(), 0, 'no payouts yet');
    await card.getByTestId('payout-open').click();
    const form = card.getByTestId('payout-form');
    assert.equal(await form.getByTestId('payout-amount').inputValue(), '8.10', 'what is owed, typed in');
    await form.getByTestId('payout-amount').fill('5');
    await form.getByTestId('payout-reference').fill(PAYOUT.reference);
    await settle(page);
    await screenshot(page, 'statements-gb-payout-form');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems by the payout form');
    await form.getByTestId('payout-save').click();
    await card.getByTestId('statement-owed').filter({ hasText: money(310) }).waitFor();
    // The figures are read again first, then the form closes (a render later): awaited.
    await card.getByTestId('payout-form').waitFor({ state: 'detached' });
    assert.deepEqual(await paidAndOwed(page), { paidOut: { label: 'Paid out', amount: money(-500) }, owed: { label: 'Still owed', amount: money(310) } });
    assert.deepEqual(await payoutRows(page), [{ date: day(), amount: money(PAYOUT.amount), reference: `Reference: ${PAYOUT.reference}` }]);

    // More than is still owed: refused by the server, in its words, what was typed kept.
    await card.getByTestId('payout-open').click();
    assert.equal(await form.getByTestId('payout-amount').inputValue(), '3.10', 'what is owed now');
    await form.getByTestId('payout-amount').fill('4');
    await form.getByTestId('payout-reference').fill('TR-2');
    await form.getByTestId('payout-save').click();
    const refusal = form.getByTestId('payout-error');
    await refusal.waitFor();
    const direct = await (await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD))('POST', `/api/v1/projects/${projectId}/payouts`, { period: PERIOD, currency: 'EUR', amount: 400, reference: 'TR-2' });
    assert.equal(direct.status, 409);
    assert.equal((await refusal.innerText()).trim(), direct.json.error);
    assert.match(direct.json.error, /3\.10/, 'the server says how much is still owed');
    assert.equal(await form.getByTestId('payout-amount').inputValue(), '4');
    assert.equal(await form.getByTestId('payout-reference').inputValue(), 'TR-2');
    await settle(page);
    await screenshot(page, 'statements-gb-payout-refused');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems by the refusal');
    assert.equal((await card.getByTestId('statement-owed').innerText()).trim(), money(310), 'nothing more paid out');
    // The refusal above, on purpose.
    await finish(b, [/status of 409/]);

    const artist = await browserAs(ACCOUNTS.artist, DESKTOP);
    await artist.page.goto(`${suite.server.url}/statements`);
    assert.deepEqual(await amounts(artist.page), { ticketSales: money(900), refunds: money(0), platformFee: money(-90), net: money(810) });
    assert.deepEqual(await paidAndOwed(artist.page), { paidOut: { label: 'Paid out', amount: money(-500) }, owed: { label: 'Still owed', amount: money(310) } });
    assert.deepEqual(await payoutRows(artist.page), [{ date: day(), amount: money(PAYOUT.amount), reference: `Reference: ${PAYOUT.reference}` }]);
    assert.equal(await artist.page.getByTestId('payout-open').count(), 0, 'no payout form for an artist');
    await artist.page.getByTestId('payouts').scrollIntoViewIfNeeded();
    await settle(artist.page);
    await screenshot(artist.page, 'statements-gb-artist-payouts');
    assert.deepEqual(await artist.page.evaluate(layoutProblems, { minTap: 0 }), [], 'layout problems by the payouts');
    await finish(artist);
  });

  test('390×844, Persian: the artist sees the same amounts in Persian digits, and everything fits', async () => {
    const b = await browserAs(ACCOUNTS.artist, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/statements`);
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    // The month in the Solar Hijri calendar (the days the Gregorian period spans), never a
    // Gregorian month's name; the address keeps the API's Gregorian period.
    const monthShown = await page.getByTestId('statements-month').innerText();
    const persianMonth = new Intl.DateTimeFormat('fa-IR', { month: 'long', timeZone: 'UTC', calendar: 'persian' }).format(new Date());
    const gregorianMonth = new Intl.DateTimeFormat('fa-IR', { month: 'long', timeZone: 'UTC', calendar: 'gregory' }).format(new Date());
    assert.ok(monthShown.includes(persianMonth) && !monthShown.includes(gregorianMonth), `the month in Persian: ${monthShown}`);
    assert.equal(await page.getByTestId('statements-month').getAttribute('data-period'), PERIOD);
    assert.deepEqual(await amounts(page), { ticketSales: money(900, 'fa-IR'), refunds: money(0, 'fa-IR'), platformFee: money(-90, 'fa-IR'), net: money(810, 'fa-IR') });
    await settle(page);
    await screenshot(page, 'statements-ir-phone');
    const found = (await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `top: ${problem}`);
    found.push(...(await latinOutsideReferences(page)));
    await page.getByTestId('statement-net').scrollIntoViewIfNeeded();
    await settle(page);
    found.push(...(await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `card: ${problem}`));
    found.push(...(await latinOutsideReferences(page)));
    // What was paid out and the payout, in Persian digits; the reference as staff wrote it.
    assert.deepEqual(await paidAndOwed(page), { paidOut: { label: 'پرداخت‌شده', amount: money(-500, 'fa-IR') }, owed: { label: 'مانده قابل پرداخت', amount: money(310, 'fa-IR') } });
    assert.deepEqual(await payoutRows(page), [{ date: day('fa-IR'), amount: money(PAYOUT.amount, 'fa-IR'), reference: `شرح: ${PAYOUT.reference}` }]);
    await page.getByTestId('payouts').scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'statements-ir-phone-payouts');
    found.push(...(await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `payouts: ${problem}`));
    found.push(...(await latinOutsideReferences(page)));
    // The menu (the phone's drawer) has the entry.
    await page.getByTestId('burger').click();
    await page.locator('[data-testid="sidebar"] [data-menu-key="statements"]').waitFor();
    assert.deepEqual([...new Set(found)], [], 'phone layout problems on Statements');
    await finish(b);
  });

  test('390×844, Persian: the admin\'s payout form fits the phone', async () => {
    const b = await browserAs(ACCOUNTS.admin, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/statements?project=${projectId}`);
    const card = page.getByTestId('statement-card');
    await card.getByTestId('payout-open').click();
    const form = card.getByTestId('payout-form');
    assert.equal(await form.getByTestId('payout-amount').inputValue(), '3.10');
    assert.match(await form.innerText(), new RegExp(money(310, 'fa-IR')), 'what is owed, in Persian digits');
    await form.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'statements-ir-phone-payout-form');
    const found = (await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `form: ${problem}`);
    found.push(...(await latinOutsideReferences(page)));
    assert.deepEqual([...new Set(found)], [], 'phone layout problems by the payout form');

    // Amounts typed on a Persian keyboard reach the server as the number they show: ۲۵٫۵۰ is
    // 25.50, more than is owed (refused, the server naming both); ۱٫۱۰ is paid out.
    await form.getByTestId('payout-amount').fill('۲۵٫۵۰');
    await settle(page);
    await screenshot(page, 'statements-ir-phone-payout-persian-digits');
    await form.getByTestId('payout-save').click();
    const refusal = form.getByTestId('payout-error');
    await refusal.waitFor();
    assert.match(latin(await refusal.innerText()), /25[.٫]50/, 'the server read 25.50');
    await form.getByTestId('payout-amount').fill('۱٫۱۰');
    await form.getByTestId('payout-save').click();
    await card.getByTestId('statement-owed').filter({ hasText: money(200, 'fa-IR') }).waitFor();
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const { payouts } = (await admin('GET', `/api/v1/projects/${projectId}/statements/${PERIOD}`)).json.payload;
    assert.deepEqual(payouts.map((payout) => payout.amount).sort((a, b) => a - b), [110, PAYOUT.amount]);
    // The refusal above, on purpose.
    await finish(b, [/status of 409/]);
  });

  test('a fan with no project has no Statements entry and is refused the page', async () => {
    const b = await browserAs(ACCOUNTS.fan, DESKTOP);
    const { page } = b;
    assert.equal(await page.locator('[data-menu-key="statements"]').count(), 0, 'no Statements entry in the menu');
    await page.goto(`${suite.server.url}/statements`);
    await page.waitForURL(/\/403$/);
    await page.getByTestId('forbidden-title').waitFor();
    await finish(b);
  });

  test('390×844, Persian: without Stripe Connect the artist keeps the project\'s bank details; staff read the whole number', async () => {
    const b = await browserAs(ACCOUNTS.artist, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/statements`);
    const form = page.getByTestId('bank-details');
    await form.waitFor();
    // Connect is off on this server: no Stripe button, the bank details instead.
    assert.equal(await page.getByTestId('get-paid-onboard').count(), 0);
    await form.getByTestId('bank-holder').fill('Aria Band');
    await form.getByTestId('bank-number').fill('DE89 3704 0044 0532 0130 00');
    await form.getByTestId('bank-note').fill('BIC COBADEFFXXX');
    await form.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'statements-ir-phone-bank-details');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: MIN_TAP }), [], 'layout problems by the bank details');
    await form.getByTestId('bank-save').click();
    // Saved: the member reads the number masked, after a reload too.
    await page.waitForFunction(() => document.querySelector('[data-testid="bank-number"]')?.value === '•••• 3000');
    await page.reload();
    await form.waitFor();
    assert.equal(await form.getByTestId('bank-holder').inputValue(), 'Aria Band');
    assert.equal(await form.getByTestId('bank-number').inputValue(), '•••• 3000');
    assert.equal(await form.getByTestId('bank-note').inputValue(), 'BIC COBADEFFXXX');
    await finish(b);

    // Staff see it whole when they pay the project.
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const read = await admin('GET', `/api/v1/projects/${projectId}/bank-details`);
    assert.equal(read.status, 200, JSON.stringify(read.json));
    assert.equal(read.json.payload.accountNumber, 'DE89370400440532013000');
    const admins = await browserAs(ACCOUNTS.admin, DESKTOP);
    await admins.page.goto(`${suite.server.url}/statements?project=${projectId}`);
    await admins.page.getByTestId('bank-details').waitFor();
    await admins.page.waitForFunction(() => document.querySelector('[data-testid="bank-number"]')?.value === 'DE89370400440532013000');
    await finish(admins);
  });
});
