// End-to-end: the Lossless rendition (issue 32). An encoder (ffmpeg) sends Ogg FLAC over HTTP
// PUT, as to an Icecast server; a fan listening with hls.js in Debian's chromium is offered
// Lossless beside the AAC renditions, chooses it, and hears it (the bar says "Lossless · FLAC
// 48 kHz", the audio's clock runs); a browser whose Media Source cannot play FLAC in MP4 is
// not offered it. In English on a desktop and in Persian on a phone, screenshots of both.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, PASSWORD, screenshot, settle, startOggFlacPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });
const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;
const TITLE = 'Lossless Evening';
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
const LOCALES = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');
const words = (lang) => JSON.parse(readFileSync(join(LOCALES, lang, 'player.json'), 'utf8'));

let concert;
let dir;
let encoder;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  const fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
  concert = await createConcert(admin, TITLE, { startsAt: new Date() });
  await buyTicket(fan, concert, fullName(ACCOUNTS.fan));
  dir = mkdtempSync(join(tmpdir(), 'encore-lossless-'));
  encoder = startOggFlacPush(suite.server.url, concert, dir);
});

after(() => {
  encoder?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens the fan's ticket and presses Listen; resolves once the bar plays a rendition. */
async function listen(page) {
  await page.goto(`${suite.server.url}/my-events`);
  await page.getByTestId('ticket-card').filter({ hasText: TITLE }).getByTestId('player-listen').click();
  await page.getByTestId('mini-player').and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
  await waitUntil(async () => (await page.getByTestId('player-rendition').first().getAttribute('data-rendition')) !== null, { timeout: 30_000, message: 'a rendition playing' });
}

const audioTime = (page) => page.getByTestId('player-audio').evaluate((audio) => audio.currentTime);

describe('Lossless', () => {
  test('an Ogg FLAC encoder gives the show a Lossless rendition the fan chooses and hears', async () => {
    const opened = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    const { page } = opened;
    await signInAs(page, ACCOUNTS.fan);
    await listen(page);
    await page.getByTestId('quality-menu').first().click();
    await page.getByTestId('quality-choices').waitFor();
    for (const quality of ['auto', 'saver', 'standard', 'lossless']) assert.equal(await page.getByTestId(`quality-${quality}`).count(), 1, quality);
    await page.getByTestId('quality-lossless').click();
    const bar = page.getByTestId('player-rendition').first();
    await waitUntil(async () => (await bar.getAttribute('data-rendition')) === 'lossless', { timeout: 20_000, message: 'playing lossless' });
    await waitUntil(async () => /^Lossless · FLAC 48 kHz$/.test(await bar.innerText()), { timeout: 20_000, message: `the bar names it: ${await bar.innerText()}` });
    const before = await audioTime(page);
    await page.waitForTimeout(2000);
    const after = await audioTime(page);
    assert.ok(after - before > 1.5, `the audio plays on: ${before} → ${after}`);
    await page.getByTestId('mini-player-expand').click();
    await page.getByTestId('stage-listening-options').waitFor();
    await settle(page);
    await screenshot(page, 'lossless-stage');
    await finish(opened);
  });

  test('in Persian on a phone; not offered where the browser cannot play FLAC', async () => {
    const phone = await browser({ width: 390, height: 844, args: PLAYBACK_ARGS });
    await phone.page.addInitScript(() => {
      localStorage.setItem('language', 'ir');
    });
    await signInAs(phone.page, ACCOUNTS.fan);
    await listen(phone.page);
    await phone.page.getByTestId('mini-player-expand').click();
    const menu = phone.page.locator('[data-testid="quality-menu"]:visible').first();
    await menu.waitFor({ timeout: 30_000 });
    await menu.click();
    const lossless = phone.page.getByTestId('quality-lossless');
    await lossless.waitFor();
    assert.equal((await lossless.innerText()).trim(), words('ir').quality.lossless);
    await waitUntil(async () => (await phone.page.locator('[role="menu"]').evaluate((el) => getComputedStyle(el).opacity).catch(() => '0')) === '1', { message: 'the open menu' });
    await screenshot(phone.page, 'lossless-menu-ir-phone');
    await finish(phone);

    // A Media Source without FLAC in MP4 (as in browsers before hls.js could feed it).
    const without = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    await without.page.addInitScript(() => {
      const supported = MediaSource.isTypeSupported.bind(MediaSource);
      MediaSource.isTypeSupported = (type) => !/flac/i.test(type) && supported(type);
    });
    await signInAs(without.page, ACCOUNTS.fan);
    await listen(without.page);
    await without.page.getByTestId('quality-menu').first().click();
    await without.page.getByTestId('quality-choices').waitFor();
    assert.equal(await without.page.getByTestId('quality-standard').count(), 1);
    assert.equal(await without.page.getByTestId('quality-lossless').count(), 0, 'Lossless offered without FLAC playback');
    await finish(without);
  });
});
