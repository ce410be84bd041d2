// End-to-end: the staff Live page. An admin (in Spanish) watches a show start, a listener
// arrive and a sale happen without reloading; a super admin (in Persian, right to left) sees
// the same show and its encoder drop; a fan is refused the page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, literally, PASSWORD, screenshot, sineFile, sleep, startPush } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', sa: 'sasha', fan: 'fiona' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const SHOW_TITLE = 'Harbour Lights Live';
const LATER_TITLE = 'Winter Strings';

let admin;
let fan;
let sine;
let push = null;
let listening = null;
const concerts = {};

const buy = (concert) => buyTicket(fan, concert, fullName(ACCOUNTS.fan));

/** The fan listens as a player does: a stream session, then the playlist every two seconds. */
async function startListening(concert) {
  const session = await fan('POST', `/api/v1/stream/${concert.id}/session`);
  assert.equal(session.status, 200, JSON.stringify(session.json));
  const url = `${suite.server.url}${session.json.payload.playlistUrl}`;
  let on = true;
  const loop = (async () => {
    while (on) {
      await fetch(url).then((r) => r.arrayBuffer()).catch(() => undefined);
      await sleep(2000);
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
}

const card = (page, concert) => page.locator(`[data-testid="live-concert"][data-event="${concert.id}"]`);
const feedItem = (page, kind, concert) => page.locator(`[data-testid="live-feed-item"][data-kind="${kind}"][data-event="${concert.id}"]`);

/** Opens the Live page in `language` and marks the document, to tell later that it was never reloaded. */
async function openLivePage(account, language) {
  const opened = await browser({ width: 1280, height: 900 });
  const { page } = opened;
  await page.addInitScript((code) => localStorage.setItem('language', code), language);
  await signInAs(page, account);
  await page.goto(`${suite.server.url}/live`);
  await page.locator('[data-testid="live-page"][data-socket="live"]').waitFor();
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  return opened;
}

const sameDocument = (page) => page.evaluate(() => window.__sameDocument === true);

before(async () => {
  await suite.ready;
  admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
  sine = sineFile(330);
  concerts.show = await createConcert(admin, SHOW_TITLE);
  concerts.later = await createConcert(admin, LATER_TITLE);
  await buy(concerts.show);
});

after(async () => {
  push?.kill('SIGKILL');
  await listening?.();
  sine?.remove();
});

describe('the staff Live page', () => {
  test('an admin sees a show start, a listener arrive and a sale happen, without a reload (Spanish)', async () => {
    const opened = await openLivePage(ACCOUNTS.admin, 'es');
    const { page } = opened;
    await page.getByRole('heading', { name: 'En directo', exact: true }).first().waitFor();
    // The menu has the entry, and nothing is live yet.
    await page.getByRole('link', { name: 'En directo' }).first().waitFor();
    assert.equal(await card(page, concerts.show).count(), 0);
    assert.equal(await page.getByTestId('live-page-polling').count(), 0, 'the page says it is live');

    push = startPush(suite.server.url, sine.path, concerts.show);
    const show = card(page, concerts.show);
    await show.and(page.locator('[data-state="onAir"]')).waitFor({ timeout: 20_000 });
    await feedItem(page, 'show_live', concerts.show).waitFor();
    assert.match(await feedItem(page, 'show_live', concerts.show).innerText(), /Harbour Lights Live\u2069 está en directo/);
    assert.equal(await show.getByTestId('live-concert-encoder').innerText(), 'Conectado');
    assert.equal(await show.getByTestId('live-concert-listeners').innerText(), '0');

    listening = await startListening(concerts.show);
    await show.getByTestId('live-concert-listeners').filter({ hasText: /^1$/ }).waitFor({ timeout: 20_000 });
    await show.getByTestId('live-concert-chart').waitFor();

    await buy(concerts.later);
    const sale = feedItem(page, 'sale', concerts.later);
    await sale.waitFor();
    assert.match(await sale.innerText(), new RegExp(`${literally(fullName(ACCOUNTS.fan))}\u2069 compró una entrada para \u2068Winter Strings`));
    // Newest first: the sale is above the show's start.
    const kinds = await page.getByTestId('live-feed-item').evaluateAll((items) => items.map((item) => item.dataset.kind));
    assert.ok(kinds.indexOf('sale') < kinds.indexOf('show_live'), kinds.join(','));
    assert.ok(await sameDocument(page), 'the page was not reloaded');
    await screenshot(page, 'dark-live-page');
    await finish(opened);
  });

  test('a super admin reading Persian (right to left) sees the show, its listener, and its encoder drop', async () => {
    const opened = await openLivePage(ACCOUNTS.sa, 'ir');
    const { page } = opened;
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    const show = card(page, concerts.show);
    await show.and(page.locator('[data-state="onAir"]')).waitFor();
    // The figures in Persian digits: the one listener is "۱", never "1".
    await show.getByTestId('live-concert-listeners').filter({ hasText: /^۱$/ }).waitFor({ timeout: 20_000 });
    assert.equal(await show.getByTestId('live-concert-state').innerText(), 'روی آنتن');
    assert.match(await show.getByTestId('live-concert-bitrate').innerText(), /^[۰-۹]+$/);
    assert.match(await show.getByTestId('live-concert-recorded').innerText(), /^\u2066?[۰-۹]+:[۰-۹]{2}\u2069?$/);
    // The feed's times too, with no Latin digit or comma.
    const time = await feedItem(page, 'show_live', concerts.show).getByTestId('live-feed-time').innerText();
    assert.match(time, /[۰-۹]+:[۰-۹]{2}:[۰-۹]{2}/);
    assert.doesNotMatch(time, /[0-9,]/);

    push.kill('SIGKILL');
    await push.exited;
    push = null;
    await show.and(page.locator('[data-state="offline"]')).waitFor({ timeout: 20_000 });
    await feedItem(page, 'show_dropped', concerts.show).waitFor();
    assert.equal(await show.getByTestId('live-concert-encoder').innerText(), 'متصل نیست');
    assert.ok(await sameDocument(page), 'the page was not reloaded');
    await screenshot(page, 'dark-rtl-live-page');
    await finish(opened);
  });

  test('a fan has no Live entry and is refused the page', async () => {
    const opened = await browser();
    const { page } = opened;
    await signInAs(page, ACCOUNTS.fan);
    assert.equal(await page.getByRole('link', { name: 'Live', exact: true }).count(), 0);
    await page.goto(`${suite.server.url}/live`);
    await page.waitForURL(/\/403$/);
    await finish(opened);
  });
});
