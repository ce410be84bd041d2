// End-to-end: nothing overlaps, nothing is cut, and on a phone every control is a thumb's
// size (issue 30). A fan with a ticket listens to a live show (the real `encore push`), so the
// mini-player is in the bar, and opens the main pages (home, events, a concert, its artist,
// the stage, My events, My orders, the cart, a receipt, preferences) at 390×844 (a phone) and 1280×800,
// in English and in Persian (right to left). Each page is measured from the bounding boxes of its controls and
// texts: no two overlap, none leaves the viewport sideways, no text is squeezed to a few
// letters or a button's label cut, and at phone width every control is at least 44 px. In
// Persian no text shows a Latin digit, nor a Latin comma beside Persian digits (a date). On a
// phone a concert's state badge stands above its title, not beside it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, latinDigits, layoutProblems, PASSWORD, screenshot, sineFile, startPush } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

// A long English title, as an artist writes it: cut with an ellipsis where it must be.
const TITLE = 'One Night at the Harbour Lights Festival';
const LATER = 'The Autumn Sessions';
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];
const MIN_TAP = 44;

let sine;
let push;
let live;
let later;
let laterArtist;
let liveArtist;
let order;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  const fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
  sine = sineFile(523);
  live = await createConcert(admin, TITLE);
  later = await createConcert(admin, LATER, { startsAt: new Date(Date.now() + 5 * 86_400_000) });
  laterArtist = (await admin('GET', `/api/v1/events/${later.id}`)).json.payload.projectId;
  liveArtist = (await admin('GET', `/api/v1/events/${live.id}`)).json.payload.projectId;
  await buyTicket(fan, live, fullName(ACCOUNTS.fan));
  order = (await fan('GET', '/api/v1/purchases/my/?page=1&pageSize=10')).json.payload.items[0].id;
  // Something in the cart, so the cart page has its rows.
  assert.equal((await fan('POST', `/api/v1/cart/${later.id}`)).status, 200);
  push = startPush(suite.server.url, sine.path, live);
});

after(async () => {
  push?.kill('SIGKILL');
  sine?.remove();
});

const PAGES = [
  { name: 'home', path: () => '/home', ready: 'home-title' },
  { name: 'events', path: () => '/events', ready: 'events-grid' },
  { name: 'concert', path: () => `/concerts/${later.id}`, ready: 'concert-page' },
  { name: 'artist', path: () => `/artists/${laterArtist}`, ready: 'artist-page' },
  { name: 'stage', path: () => `/stage/${live.id}`, ready: 'stage' },
  { name: 'my events', path: () => '/my-events', ready: 'ticket-card' },
  { name: 'my orders', path: () => '/my-orders', ready: 'my-orders' },
  { name: 'cart', path: () => '/cart', ready: 'cart-entries' },
  { name: 'receipt', path: () => `/receipts/${order}`, ready: 'receipt' },
  { name: 'preferences', path: () => '/preferences', ready: 'avatar-upload' },
];

describe('Layout on a phone and a desktop, in English and Persian (issue 30)', () => {
  for (const size of SIZES) {
    for (const language of ['gb', 'ir']) {
      test(`${size.name} (${size.width}×${size.height}), ${language === 'ir' ? 'Persian' : 'English'}: the main pages, with the mini-player playing`, async () => {
        // The fan signs in through the login page for the first screen; the others start with
        // what that sign-in left.
        const b = await browserAs(ACCOUNTS.fan, {
          width: size.width,
          height: size.height,
          args: PLAYBACK_ARGS,
          reuse: true,
          prepare: (page) =>
            page.addInitScript((lang) => {
              localStorage.setItem('language', lang);
            }, language),
        });
        const { page } = b;
        await page.goto(`${suite.server.url}/my-events`);
        await page.getByTestId('ticket-card').filter({ hasText: TITLE }).getByTestId('player-listen').click();
        await page.getByTestId('mini-player').and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
        // The artist's name in the bar opens the artist's page; on a phone the whole concert is
        // one thumb-sized link to the stage (which links the artist).
        const artistLink = await page.getByTestId('mini-player-artist').evaluate((el) => el.closest('a')?.getAttribute('href'));
        assert.equal(artistLink, size.name === 'desktop' ? `/artists/${liveArtist}` : `/stage/${live.id}`);
        const found = [];
        for (const shown of PAGES) {
          // Inside the app, as a link does, so that the player plays on (a full load stops it).
          await page.evaluate((path) => {
            window.history.pushState({}, '', path);
            window.dispatchEvent(new PopStateEvent('popstate'));
          }, shown.path());
          await page.waitForURL((url) => url.pathname === shown.path());
          await page.getByTestId(shown.ready).first().waitFor();
          // The stream keeps the network busy: wait for the pictures and fonts instead, then a
          // moment for the layout to settle.
          await page.evaluate(async () => {
            await document.fonts.ready;
            await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)));
          });
          await page.waitForTimeout(300);
          await page.getByTestId('mini-player').and(page.locator('[data-phase="playing"]')).waitFor();
          const problems = await page.evaluate(layoutProblems, { minTap: size.name === 'phone' ? MIN_TAP : 0 });
          await screenshot(page, `layout-${size.name}-${language}-${shown.name.replace(/\s/g, '-')}`);
          found.push(...problems.map((problem) => `${shown.name}: ${problem}`));
          if (shown.name === 'concert') {
            // On a phone the state badge stands above the title, which keeps the card's width;
            // wider, it stands beside it.
            const concert = page.getByTestId('concert-page');
            const [title, badge] = await Promise.all([concert.getByTestId('concert-title').boundingBox(), concert.getByTestId('state-badge').boundingBox()]);
            const above = badge.y + badge.height <= title.y;
            if (above !== (size.name === 'phone')) found.push(`concert: the state badge is ${above ? 'above' : 'beside'} the title`);
          }
          if (language === 'ir') found.push(...(await page.evaluate(latinDigits)).map((text) => `${shown.name}: Latin digits or comma in Persian: "${text}"`));
        }
        assert.deepEqual(found, [], 'layout problems');
        await finish(b, [/status of 40[34] .*\/stream\//]);
      });
    }
  }
});
