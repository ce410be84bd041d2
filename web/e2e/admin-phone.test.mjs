// End-to-end: the staff lists on a phone (issue 30). At 360 px wide, Users, Manage events and
// Orders show each row as a card (its labels and values, the same actions) and the page never
// scrolls sideways, in English and in Persian (right to left); from Mantine's `sm` up they are
// tables, as before. A phone's card keeps the row's actions: the sales drawer opens from it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, layoutProblems, PASSWORD, person, screenshot } from './harness.mjs';

const ACCOUNTS = cast({
  admin: 'ada',
  // An address too long for a phone's card: it wraps, and the page never scrolls sideways.
  fan: person('a.very.long.address.for.a.phone@example-music-lovers.com', 'Parisa', 'Phone'),
});
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const TITLE = 'One Night at the Harbour Lights Festival';
const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 800 };
const MIN_TAP = 44;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  const concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() + 3 * 86_400_000) });
  await buyTicket(await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD), concert, fullName(ACCOUNTS.fan));
});

const PAGES = [
  { name: 'users', path: '/users', list: 'users-table', row: 'user-row' },
  { name: 'manage-events', path: '/manage-events', list: 'manage-table', row: 'manage-row' },
  { name: 'orders', path: '/payments/orders', list: 'orders-table', row: 'orders-row' },
];

/** In the page: how far the document scrolls sideways (0 when it does not). */
const sideways = () => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth;

async function open(page, shown) {
  await page.goto(`${suite.server.url}${shown.path}`);
  await page.getByTestId(shown.row).first().waitFor();
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.waitForTimeout(200);
}

describe('Staff lists on a phone and a desktop (issue 30)', () => {
  for (const language of ['gb', 'ir']) {
    const prepare = (page) =>
      page.addInitScript((lang) => {
        localStorage.setItem('language', lang);
      }, language);

    test(`360 px, ${language === 'ir' ? 'Persian' : 'English'}: Users, Manage events and Orders are cards, and nothing scrolls sideways`, async () => {
      const b = await browserAs(ACCOUNTS.admin, { ...PHONE, reuse: true, prepare });
      const { page } = b;
      const found = [];
      for (const shown of PAGES) {
        await open(page, shown);
        await screenshot(page, `admin-phone-${language}-${shown.name}`);
        const overflow = await page.evaluate(sideways);
        if (overflow > 0) found.push(`${shown.name}: the page scrolls sideways by ${overflow} px`);
        // Cards, not a table squeezed or scrolled inside its box.
        if ((await page.getByTestId(shown.list).evaluate((el) => el.tagName)) === 'TABLE') found.push(`${shown.name}: still a table`);
        found.push(...(await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `${shown.name}: ${problem}`));
      }
      // The dashboard's panels (the concerts' sales, the recent orders) fit as they are.
      await page.goto(`${suite.server.url}/dashboard`);
      await page.getByTestId('recent-order').first().waitFor();
      await page.waitForTimeout(300);
      await screenshot(page, `admin-phone-${language}-dashboard`);
      const overflow = await page.evaluate(sideways);
      if (overflow > 0) found.push(`dashboard: the page scrolls sideways by ${overflow} px`);
      assert.deepEqual(found, [], 'phone layout problems');

      // The card keeps its row's test ids and actions: the concert's figures, and its sales drawer.
      await open(page, PAGES[1]);
      const card = page.getByTestId('manage-row').filter({ hasText: TITLE });
      assert.equal(await card.getByTestId('tickets-sold').innerText(), language === 'ir' ? '۱' : '1');
      await card.getByTestId('manage-sales').click();
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await finish(b);
    });

    test(`1280 px, ${language === 'ir' ? 'Persian' : 'English'}: the same pages are tables`, async () => {
      const b = await browserAs(ACCOUNTS.admin, { ...DESKTOP, reuse: true, prepare });
      const { page } = b;
      for (const shown of PAGES) {
        await open(page, shown);
        await screenshot(page, `admin-desktop-${language}-${shown.name}`);
        assert.equal(await page.getByTestId(shown.list).evaluate((el) => el.tagName), 'TABLE', shown.name);
        assert.equal(await page.evaluate(sideways), 0, `${shown.name} scrolls sideways`);
      }
      await finish(b);
    });
  }
});
