// End-to-end: contrast and fit. axe-core's color-contrast rule on home, events, the player
// page and the dashboard in both themes; badges never cut off; the top bar fits from 900 px
// up (side and top navigation); the hosted test checkout in Encore's look, its card fields
// formatted as typed. Debian's chromium against the real encore binary.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiSession, cast, createConcert, e2eSuite, fullName, pageApi, payCart, person, screenshot, startPush, writeSine } from './harness.mjs';

const ACCOUNTS = cast({
  // A long surname: the dashboard's account card, checked for contrast and fit, shows it.
  admin: person('ada@example.com', 'Ada', 'Lovelace-Byron', { role: 'admin' }),
  fan: 'fiona',
});

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LIVE_TITLE = 'Contrast Live Session';
const DRAFT_TITLE = 'A Draft Nobody Sees';
// The player's stream requests a signed playlist the test stops at the end (the push ends).
const STREAM_ANSWERS = /status of (404|410)/;

/** The app's theme, as the preferences' switch stores it, then a reload. */
async function useTheme(page, scheme) {
  await page.evaluate((value) => localStorage.setItem('theme-preset', value), scheme);
  await page.reload();
  await page.waitForFunction((value) => document.documentElement.getAttribute('data-mantine-color-scheme') === value, scheme);
}

/** axe-core's color-contrast rule on the page as it is: the violations, readable. */
async function contrastViolations(page) {
  // Evaluated through the DevTools protocol: the app's CSP admits no inline script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    window.axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] }),
  );
  return result.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${node.target.join(' ')}: ${node.any.map((check) => check.message).join('; ')}`),
  );
}

/** Badges whose text is cut off (an ellipsis): scrollWidth beyond clientWidth. */
async function truncatedBadges(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.mantine-Badge-root')]
      .flatMap((badge) => [badge, ...badge.querySelectorAll('.mantine-Badge-label')])
      .filter((element) => element.getClientRects().length > 0 && element.scrollWidth > element.clientWidth)
      .map((element) => `${element.textContent} (${element.scrollWidth} > ${element.clientWidth})`),
  );
}

/** Waits until the page's content has settled (no skeleton, no loader). A page playing the
 * stream never has a quiet network (it waited out the 30 s timeout there, four times a run):
 * there, once the player plays and knows whether it is live, its pictures and fonts, then a
 * moment for the layout to settle. */
async function settled(page, { streaming = false } = {}) {
  if (streaming) {
    await page.getByTestId('mini-player').and(page.locator('[data-phase="playing"][data-live]')).waitFor({ timeout: 30_000 });
    await page.evaluate(async () => {
      await document.fonts.ready;
      await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)));
    });
    await page.waitForTimeout(1000);
  } else {
    await page.waitForLoadState('networkidle').catch(() => undefined);
  }
  await page.waitForFunction(() => document.querySelectorAll('.mantine-Skeleton-root, .mantine-Loader-root[data-page-loader]').length === 0);
}

let liveId;
const PAGES = [
  { name: 'home', path: '/home', ready: (page) => page.getByTestId('home-event').filter({ hasText: LIVE_TITLE }).locator('.mantine-Badge-root').waitFor() },
  { name: 'events', path: '/events', ready: (page) => page.getByTestId('event-card').filter({ hasText: LIVE_TITLE }).getByTestId('state-badge').waitFor() },
  // The stage view with the show playing, and the mini-player bar under it.
  {
    name: 'player',
    path: () => `/stage/${liveId}`,
    streaming: true,
    ready: async (page) => {
      await page.getByTestId('player-listen').click();
      await page.getByTestId('mini-player').waitFor();
    },
  },
  { name: 'dashboard', path: '/dashboard', ready: (page) => page.getByTestId('account-summary').waitFor() },
];

describe('Encore contrast and fit', () => {
  let push;
  before(async () => {
    const server = await suite.ready;
    const admin = await apiSession(server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    const live = await createConcert(admin, LIVE_TITLE, { startsAt: new Date(Date.now() - 60_000) });
    liveId = live.id;
    for (const scheme of ['dark', 'light']) await createConcert(admin, `Checkout in ${scheme}`, { startsAt: new Date(Date.now() + 86_400_000) });
    // A draft, for the manage-events badge.
    const project = await admin('POST', '/api/v1/projects', { name: 'Drafts band' });
    const draft = await admin('POST', '/api/v1/events', {
      projectId: project.json.payload.id, title: DRAFT_TITLE, artistName: 'Drafts band',
      startsAt: new Date(Date.now() + 2 * 86_400_000).toISOString(), durationMinutes: 60, price: 500, currency: 'EUR',
    });
    assert.equal(draft.status, 201, JSON.stringify(draft.json));
    const audio = join(tmpdir(), `encore-look-${process.pid}.aac`);
    writeSine(audio, 440);
    push = startPush(server.url, audio, live);
    for (const account of [ACCOUNTS.admin, ACCOUNTS.fan]) {
      const session = await apiSession(server.url, account.email, account.password);
      assert.equal((await session('POST', `/api/v1/cart/${live.id}`, {})).status, 200);
      assert.equal((await payCart(session, account.firstName)).status, 200);
    }
  });
  after(() => {
    push?.kill('SIGTERM');
  });

  for (const account of ['admin', 'fan']) {
    test(`${account}: no color-contrast violation on home, events, player and dashboard, in dark and light; no badge cut off`, async () => {
      const b = await browser({ width: 1280, height: 900 });
      const { page } = b;
      await signInAs(page, ACCOUNTS[account]);
      const found = [];
      for (const scheme of ['dark', 'light']) {
        await useTheme(page, scheme);
        for (const shown of PAGES) {
          await page.goto(`${suite.server.url}${typeof shown.path === 'function' ? shown.path() : shown.path}`);
          await shown.ready(page);
          await settled(page, shown);
          for (const violation of await contrastViolations(page)) found.push(`${scheme} ${shown.name}: ${violation}`);
          for (const cut of await truncatedBadges(page)) found.push(`${scheme} ${shown.name}: badge cut off: ${cut}`);
          if (account === 'admin') await screenshot(page, `look-${scheme}-${shown.name}`);
        }
      }
      assert.deepEqual(found, []);
      await finish(b, [STREAM_ANSWERS]);
    });
  }

  test('badges are whole on narrow cards and in the manage-events table, in English and Persian', async () => {
    const b = await browser({ width: 900, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    const found = [];
    for (const language of ['gb', 'ir']) {
      await page.evaluate((value) => localStorage.setItem('language', value), language);
      for (const path of ['/home', '/events', '/my-events', '/manage-events']) {
        await page.goto(`${suite.server.url}${path}`);
        await page.locator('.mantine-Badge-root').first().waitFor();
        await settled(page);
        for (const cut of await truncatedBadges(page)) found.push(`${language} ${path}: ${cut}`);
      }
    }
    await page.evaluate(() => localStorage.setItem('language', 'gb'));
    assert.deepEqual(found, []);
    await finish(b, [STREAM_ANSWERS]);
  });

  for (const layout of ['side', 'top']) {
    for (const width of [900, 1100, 1280]) {
      test(`the top bar fits at ${width} px (${layout} navigation): the cart and the avatar are visible inside the viewport`, async () => {
        const b = await browser({ width, height: 800 });
        const { page } = b;
        await signInAs(page, ACCOUNTS.admin);
        await page.evaluate((value) => localStorage.setItem('layout', value), layout);
        for (const language of ['gb', 'ir']) {
          await page.evaluate((value) => localStorage.setItem('language', value), language);
          await page.goto(`${suite.server.url}/dashboard`);
          await page.getByTestId('account-summary').waitFor();
          for (const testId of ['logo', 'cart-badge', 'profile-menu']) {
            const element = page.getByTestId(testId);
            assert.ok(await element.isVisible(), `${testId} is visible (${language})`);
            const box = await element.boundingBox();
            assert.ok(box.x >= 0 && box.x + box.width <= width, `${testId} inside ${width} px (${language}): ${JSON.stringify(box)}`);
          }
          // Nothing in the bar overlaps anything else, and the bar does not scroll.
          const overlaps = await page.evaluate(() => {
            const header = document.querySelector('.mantine-AppShell-header');
            const items = [...header.querySelectorAll('[data-testid="logo"], [data-testid="top-menu"] > *, [data-testid="top-bar-actions"]')]
              .filter((element) => element.getClientRects().length > 0)
              .map((element) => ({ id: element.getAttribute('data-testid') ?? element.textContent, rect: element.getBoundingClientRect() }));
            const bad = [];
            for (const [i, a] of items.entries()) {
              for (const b of items.slice(i + 1)) {
                if (a.rect.left < b.rect.right - 1 && b.rect.left < a.rect.right - 1) bad.push(`${a.id} × ${b.id}`);
              }
            }
            if (header.scrollWidth > header.clientWidth) bad.push(`header scrolls ${header.scrollWidth} > ${header.clientWidth}`);
            return bad;
          });
          assert.deepEqual(overlaps, [], `${language}`);
          if (layout === 'top' && width >= 1024) {
            // Every menu entry is in the bar or in its overflow menu.
            const menu = page.getByTestId('top-menu');
            await menu.waitFor();
            const more = menu.getByTestId('top-menu-more');
            if (await more.isVisible()) {
              await more.click();
              await page.getByTestId('top-menu-overflow').getByRole('menuitem').first().waitFor();
              await page.keyboard.press('Escape');
            }
          }
          await screenshot(page, `look-topbar-${layout}-${width}-${language}`);
        }
        await page.evaluate(() => localStorage.setItem('language', 'gb'));
        await finish(b, [STREAM_ANSWERS]);
      });
    }
  }

  test('the concert picture is framed at 16:9 before upload, previewed, and stored so', async () => {
    const picture = join(tmpdir(), `encore-look-${process.pid}.png`);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1600x600', '-frames:v', '1', picture]);
    const b = await browser({ width: 1280, height: 1000 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('manage-row').filter({ hasText: DRAFT_TITLE }).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const form = page.getByTestId('event-form');
    // Required fields carry the asterisk.
    for (const name of ['title', 'startsAt', 'price']) {
      const id = await form.locator(`input[name="${name}"]`).getAttribute('id');
      assert.equal(await form.locator(`label[for="${id}"][data-required]`).count(), 1, `${name} is marked required`);
    }
    // Optional fields are not: the description, and the billing name (the project's by default).
    assert.equal(await form.locator('label[for][data-required]').filter({ hasText: 'Description' }).count(), 0, 'an optional field is not');
    const artistId = await form.locator('input[name="artistName"]').getAttribute('id');
    assert.equal(await form.locator(`label[for="${artistId}"][data-required]`).count(), 0, 'the billing name is optional');
    await form.locator('input[type="file"]').setInputFiles(picture);
    await form.getByTestId('image-cropper').waitFor();
    await screenshot(page, 'look-dark-image-cropper');
    await form.getByTestId('image-crop-apply').click();
    const preview = form.getByTestId('image-preview').locator('img');
    await preview.waitFor();
    const shown = await preview.evaluate((img) => ({ width: img.naturalWidth, height: img.naturalHeight }));
    assert.ok(Math.abs(shown.width / shown.height - 16 / 9) < 0.01, `the preview is 16:9: ${JSON.stringify(shown)}`);
    await screenshot(page, 'look-dark-image-preview');
    await page.getByTestId('event-save').click();
    await form.waitFor({ state: 'detached' });
    const managed = await pageApi(page, 'GET', '/api/v1/events/manage');
    const id = managed.json.payload.find((event) => event.title === DRAFT_TITLE).id;
    const detail = await pageApi(page, 'GET', `/api/v1/events/${id}`);
    const stored = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    }, detail.json.payload.image);
    assert.ok(Math.abs(stored.width / stored.height - 16 / 9) < 0.01, `the stored picture is 16:9: ${JSON.stringify(stored)}`);
    await finish(b, [STREAM_ANSWERS]);
  });

  for (const scheme of ['dark', 'light']) {
    test(`the test checkout in ${scheme}: Encore's look at AA contrast, the card number and expiry formatted as typed, a way back to the cart`, async () => {
      const b = await browser({ width: 1000, height: 900, colorScheme: scheme });
      const { page } = b;
      await signInAs(page, ACCOUNTS.fan);
      await page.goto(`${suite.server.url}/events`);
      const card = page.getByTestId('event-card').filter({ hasText: `Checkout in ${scheme}` });
      await card.getByTestId('event-buy').click();
      await card.getByTestId('event-in-cart').click();
      await page.waitForURL(/\/cart$/);
      await page.getByTestId('pay-now').click();
      await page.waitForURL(/\/pay\//);
      // No theme chosen in the app on this profile: the page follows prefers-color-scheme.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, scheme === 'dark' ? 'rgb(36, 36, 36)' : 'rgb(241, 243, 245)');
      assert.deepEqual(await contrastViolations(page), []);
      const number = page.locator('input[name="cardNumber"]');
      await number.pressSequentially('4242424242424242');
      assert.equal(await number.inputValue(), '4242 4242 4242 4242');
      const expiry = page.locator('input[name="expiry"]');
      await expiry.pressSequentially('1234');
      assert.equal(await expiry.inputValue(), '12/34');
      await screenshot(page, `look-${scheme}-pay`);
      await page.getByTestId('pay-back').click();
      await page.waitForURL(/\/cart$/);
      // Back in the cart, the concert is still there: paying goes through.
      await page.getByTestId('pay-now').click();
      await page.waitForURL(/\/pay\//);
      await page.locator('input[name="name"]').fill(fullName(ACCOUNTS.fan));
      await page.locator('input[name="cardNumber"]').pressSequentially('4242424242424242');
      await page.locator('input[name="expiry"]').pressSequentially('1234');
      await page.locator('input[name="cvc"]').fill('123');
      await page.getByRole('button', { name: /^Pay/ }).click();
      await page.waitForURL(/\/checkout-success/);
      await finish(b, [STREAM_ANSWERS]);
    });
  }
});
