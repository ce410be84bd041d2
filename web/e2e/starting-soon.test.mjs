// End-to-end (issue 29, "live" only when it is): a concert past its start with nothing on
// air reads "Starting soon" (the artist awaited), never "Live now", on the home page, the
// concert's card and the holder's ticket, in English and in Persian on a phone; once the
// encoder connects the same pages read "Live now" by themselves (no reload).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { apiSession, cast, createConcert, e2eSuite, screenshot, startPush, writeSine } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada' });
const TITLE = 'Quiet Before the Set';

const suite = e2eSuite(ACCOUNTS, { width: 390, height: 844 });
const { browser, finish } = suite;

describe('Live only when it is (issue 29)', () => {
  let concert;

  test('past its start with no encoder, the home page says Starting soon, not Live now (English and Persian, phone)', async () => {
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    concert = await createConcert(admin, TITLE, { startsAt: new Date(Date.now() - 60_000) });
    for (const language of ['gb', 'ir']) {
      const b = await browser();
      const { page } = b;
      await page.addInitScript((code) => {
        localStorage.setItem('language', code);
      }, language);
      await page.goto(`${suite.server.url}/home`);
      const card = page.getByTestId('home-upcoming').getByTestId('home-event').filter({ hasText: TITLE });
      const badge = card.getByTestId('state-badge');
      await badge.and(page.locator('[data-reason="awaiting_encoder"]')).waitFor();
      assert.equal(await badge.textContent(), language === 'gb' ? 'Starting soon' : 'به‌زودی شروع می‌شود');
      assert.equal(await page.getByTestId('home-live').count(), 0, 'nothing is live now');
      await screenshot(page, `phone-starting-soon-${language}`);
      await finish(b);
    }
  });

  test('once the encoder connects, the open home page moves the concert to Live now by itself', async () => {
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/home`);
    await page.getByTestId('home-upcoming').getByTestId('home-event').filter({ hasText: TITLE }).waitFor();
    await page.evaluate(() => {
      window.encoreSamePage = true;
    });
    const audio = join(mkdtempSync(join(tmpdir(), 'encore-soon-')), 'sine.aac');
    writeSine(audio, 440);
    const push = startPush(suite.server.url, audio, concert);
    try {
      const live = page.getByTestId('home-live').getByTestId('home-event').filter({ hasText: TITLE });
      // The page asks again every 15 s while a show waits for its artist.
      await live.getByTestId('state-badge').and(page.locator('[data-reason="on_air"]')).waitFor({ timeout: 30_000 });
      assert.equal(await live.getByTestId('state-badge').textContent(), 'Live now');
      assert.equal(await page.evaluate(() => window.encoreSamePage), true, 'the page was not reloaded');
    } finally {
      push.kill();
    }
    await finish(b);
  });
});
