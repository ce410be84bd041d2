// End-to-end: tickets as gifts (issue 31). A fan gives her ticket from My orders at 1280×800
// in English; the friend opens the e-mailed claim link signed out, signs up through it, signs
// in, claims the ticket and sees it under My tickets. Another fan takes a pending gift back.
// A Persian reader gives one on a 390×844 phone (right to left, nothing cut), and the claim
// page reads Persian at 390 px for a signed-out visitor.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, claimLink as claimLinkIn, createConcert, e2eSuite, fullName, inPersian, layoutProblems, PASSWORD, signUpAndClaim } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', giver: 'fiona', taker: 'ann', persianFan: 'sara' });
const suite = e2eSuite(ACCOUNTS);
const { browser, browserAs, finish } = suite;

const TITLE = 'Lanterns on the Quay';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The claim link mailed to `to`. */
const claimLink = (to) => claimLinkIn(suite.server, to);

let concert;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() + 3 * 86_400_000) });
  for (const fan of [ACCOUNTS.giver, ACCOUNTS.taker, ACCOUNTS.persianFan]) {
    await buyTicket(await apiSession(suite.server.url, fan.email, PASSWORD), concert, fullName(fan));
  }
});

describe('Tickets as gifts (issue 31)', () => {
  test('1280×800, English: a fan gives her ticket; a newcomer signs up through the claim link and holds it', async () => {
    const giver = await browserAs(ACCOUNTS.giver, DESKTOP);
    await giver.page.goto(`${suite.server.url}/my-orders`);
    const card = giver.page.getByTestId('my-ticket').filter({ hasText: TITLE });
    await card.getByTestId('gift-open').click();
    await card.getByTestId('gift-email').fill('newcomer@example.com');
    await card.getByTestId('gift-send').click();
    await card.getByTestId('pending-gift').waitFor();
    assert.match(await card.getByTestId('pending-gift').innerText(), /newcomer@example\.com/);
    await finish(giver);

    const link = await claimLink('newcomer@example.com');
    const friend = await browser(DESKTOP);
    const { page } = friend;
    await page.goto(link);
    assert.match(await page.getByTestId('claim-what').innerText(), new RegExp(`${TITLE}`));
    await signUpAndClaim(page, { name: 'Nina Newcomer', email: 'newcomer@example.com' });
    await page.goto(`${suite.server.url}/my-orders`);
    await page.getByTestId('my-ticket').filter({ hasText: TITLE }).waitFor();
    // The link is single-use: opened again, it says so.
    await page.goto(link);
    await page.getByTestId('claim-invalid').waitFor();
    await finish(friend, [/404/]);
  });

  test('a pending gift is taken back before the show: the ticket is the giver\'s again', async () => {
    const taker = await apiSession(suite.server.url, ACCOUNTS.taker.email, PASSWORD);
    const [ticket] = (await taker('GET', '/api/v1/tickets/mine')).json.payload;
    assert.equal((await taker('POST', `/api/v1/tickets/${ticket.id}/gift`, { email: 'maybe@example.com' })).status, 201);
    const b = await browserAs(ACCOUNTS.taker, DESKTOP);
    await b.page.goto(`${suite.server.url}/my-orders`);
    const card = b.page.getByTestId('my-ticket').filter({ hasText: TITLE });
    await card.getByTestId('gift-take-back').click();
    await b.page.locator('[data-testid="my-ticket"][data-given="no"]').waitFor();
    await card.getByTestId('gift-open').waitFor();
    await finish(b);
  });

  test('390×844, Persian: a fan gives a ticket right to left, nothing cut; the claim page reads Persian signed out', async () => {
    const b = await browserAs(ACCOUNTS.persianFan, { ...PHONE, prepare: inPersian });
    const { page } = b;
    await page.goto(`${suite.server.url}/my-orders`);
    await page.getByText('بلیت‌های من').first().waitFor();
    const card = page.getByTestId('my-ticket').filter({ hasText: TITLE });
    await card.getByTestId('gift-open').click();
    await card.getByTestId('gift-email').fill('doost@example.com');
    await card.getByTestId('gift-send').click();
    await card.getByTestId('pending-gift').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    // Measured once the toast saying so has slid away.
    await page.locator('.mantine-Notification-root').waitFor({ state: 'detached', timeout: 10_000 });
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 24 }), []);
    await finish(b);

    const visitor = await browser({ ...PHONE });
    await inPersian(visitor.page);
    await visitor.page.goto(await claimLink('doost@example.com'));
    await visitor.page.getByText('بلیتی برای شما').waitFor();
    await visitor.page.getByTestId('claim-sign-up').waitFor();
    assert.deepEqual(await visitor.page.evaluate(layoutProblems, { minTap: 24 }), []);
    await finish(visitor);
  });
});
