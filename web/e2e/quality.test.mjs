// End-to-end: the listener's quality menu (issue 32). A fan listens with hls.js in Debian's
// chromium while the real `encore push` sends 192 kbit/s AAC (so the ladder has Data saver,
// Standard and High, and no Lossless); switching renditions mid-show never stalls the audio's
// clock for more than one part; the choice is kept with the account; the menu reads in five
// languages, at phone size and in Persian too; casting says where it is not possible.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, PASSWORD, screenshot, startPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });
const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;
const TITLE = 'Ladder Night';
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
const LOCALES = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');
const words = (lang) => JSON.parse(readFileSync(join(LOCALES, lang, 'player.json'), 'utf8'));

let admin;
let fan;
let concert;
let dir;
let push;

before(async () => {
  await suite.ready;
  admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
  concert = await createConcert(admin, TITLE, { startsAt: new Date() });
  await buyTicket(fan, concert, fullName(ACCOUNTS.fan));
  // Above 140 kbit/s: the encoder's own stream is the High rendition.
  dir = mkdtempSync(join(tmpdir(), 'encore-quality-'));
  const file = join(dir, 'sine.aac');
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000:duration=60', '-c:a', 'aac', '-b:a', '192k', '-f', 'adts', file]);
  push = startPush(suite.server.url, file, concert);
});

after(() => {
  push?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens the fan's ticket and presses Listen; resolves once the bar plays a rendition. */
async function listen(page) {
  await page.goto(`${suite.server.url}/my-events`);
  await page.getByTestId('ticket-card').filter({ hasText: TITLE }).getByTestId('player-listen').click();
  await page.getByTestId('mini-player').and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
}

const rendition = (page) => page.getByTestId('player-rendition').first().getAttribute('data-rendition');

async function choose(page, quality) {
  await page.getByTestId('quality-menu').first().click();
  await page.getByTestId(`quality-${quality}`).click();
}

describe('the quality menu', () => {
  test('switching renditions mid-show plays on without a gap, and the choice is kept with the account', async () => {
    const opened = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    const { page } = opened;
    const partTargets = [];
    page.on('response', async (response) => {
      if (!/\/stream\/[^/]+\/[a-z]+\/[^/]*\.m3u8/.test(response.url())) return;
      const text = await response.text().catch(() => '');
      const found = /#EXT-X-PART-INF:PART-TARGET=([\d.]+)/.exec(text);
      if (found) partTargets.push(Number(found[1]));
    });
    await signInAs(page, ACCOUNTS.fan);
    await listen(page);
    await waitUntil(async () => (await rendition(page)) !== null, { timeout: 30_000, message: 'a rendition playing' });
    await page.getByTestId('quality-menu').first().click();
    const menu = page.getByTestId('quality-choices');
    await menu.waitFor();
    for (const quality of ['auto', 'saver', 'standard', 'high']) assert.equal(await page.getByTestId(`quality-${quality}`).count(), 1, quality);
    // The show has no lossless rendition: not offered, even though chromium plays FLAC.
    assert.equal(await page.getByTestId('quality-lossless').count(), 0);
    assert.equal(await page.getByTestId('quality-auto').getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Escape');

    // The audio clock, sampled in the page every 20 ms: the longest time it stood still.
    await page.evaluate(() => {
      const audio = document.querySelector('[data-testid="player-audio"]');
      const watch = { last: audio.currentTime, since: performance.now(), longest: 0, samples: 0, stalls: [], t0: performance.now() };
      window.__stall = watch;
      window.__stallTimer = setInterval(() => {
        const now = performance.now();
        watch.samples += 1;
        if (audio.currentTime === watch.last) return;
        // From the last sample that saw the clock move to the first that sees it move again:
        // an upper bound of how long it stood still.
        const still = now - watch.since;
        watch.longest = Math.max(watch.longest, still / 1000);
        if (still > 150) watch.stalls.push([Math.round(watch.since - watch.t0), Math.round(still), audio.currentTime]);
        watch.last = audio.currentTime;
        watch.since = now;
      }, 20);
    });
    for (const [quality, name] of [['saver', 'saver'], ['high', 'high'], ['standard', 'standard']]) {
      console.log(`choose ${quality} at ${await page.evaluate(() => Math.round(performance.now() - window.__stall.t0))} ms`);
      await choose(page, quality);
      await waitUntil(async () => (await rendition(page)) === name, { timeout: 20_000, message: `playing ${name}` });
      assert.match(await page.getByTestId('player-rendition').first().innerText(), {
        saver: /^Data saver · AAC 48 kbit\/s$/,
        high: /^High · AAC \d+ kbit\/s$/,
        standard: /^Standard · AAC 128 kbit\/s$/,
      }[name]);
      await page.waitForTimeout(2000);
    }
    const stall = await page.evaluate(() => {
      clearInterval(window.__stallTimer);
      return window.__stall;
    });
    // Each stall longer than 150 ms: [start ms, length ms, currentTime].
    console.log(`stalls: ${JSON.stringify(stall.stalls)}`);
    const part = Math.max(...partTargets);
    assert.ok(part > 0.1 && part < 1.1, `PART-TARGET ${part}`);
    assert.ok(stall.samples > 200, `sampled ${stall.samples} times`);
    // One part at most (with one sample's slack).
    assert.ok(stall.longest <= part + 0.02, `the clock stood still ${stall.longest.toFixed(3)} s (one part: ${part} s)`);
    console.log(`longest stall while switching: ${stall.longest.toFixed(3)} s, part ${part} s`);
    assert.equal(await page.getByTestId('quality-menu').first().getAttribute('data-quality'), 'standard');
    await waitUntil(async () => (await fan('GET', '/api/v1/accounts/userinfo/me')).json.payload[0].streamQuality === 'standard', { message: 'the account keeps it' });
    await finish(opened);

    // Another device of the account starts from it.
    const other = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    await signInAs(other.page, ACCOUNTS.fan);
    await listen(other.page);
    await waitUntil(async () => (await rendition(other.page)) === 'standard', { timeout: 30_000, message: 'the kept quality' });
    assert.equal(await other.page.getByTestId('quality-menu').first().getAttribute('data-quality'), 'standard');
    await finish(other);
  });

  test('the menu in five languages, on a phone and in Persian; casting says where it is not possible', async () => {
    for (const lang of ['gb', 'br', 'es', 'cn', 'ir']) {
      const phone = lang === 'ir' || lang === 'gb';
      const opened = await browser({ width: phone ? 390 : 1280, height: phone ? 844 : 900, args: PLAYBACK_ARGS });
      const { page } = opened;
      await page.addInitScript((code) => {
        localStorage.setItem('language', code);
      }, lang);
      await signInAs(page, ACCOUNTS.fan);
      await listen(page);
      // A phone's bar keeps play, the title and the stage: the menu is on the stage there.
      if (phone) {
        await page.getByTestId('mini-player-expand').click();
        await page.getByTestId('stage-listening-options').waitFor();
      }
      const menu = page.locator('[data-testid="quality-menu"]:visible').first();
      await menu.waitFor({ timeout: 30_000 });
      const t = words(lang);
      assert.equal(await menu.getAttribute('aria-label'), t.qualityMenu);
      await menu.click();
      // The menu fades in: the picture is taken once it is fully shown.
      await waitUntil(async () => (await page.locator('[role="menu"]').evaluate((el) => getComputedStyle(el).opacity).catch(() => '0')) === '1', { message: 'the open menu' });
      for (const quality of ['auto', 'saver', 'standard', 'high']) {
        assert.equal((await page.getByTestId(`quality-${quality}`).innerText()).trim(), t.quality[quality], `${lang} ${quality}`);
      }
      if (lang === 'ir') assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
      await screenshot(page, `quality-menu-${lang}${phone ? '-phone' : ''}`);
      await page.keyboard.press('Escape');
      // The stage: the rendition playing and the cast hint (chromium casts no Media Source).
      if (!phone) await page.getByTestId('mini-player-expand').click();
      const options = page.getByTestId('stage-listening-options');
      await options.waitFor();
      await options.scrollIntoViewIfNeeded();
      await waitUntil(async () => (await options.getByTestId('cast-unavailable').count()) + (await options.getByTestId('cast-button').count()) > 0, { message: 'cast control' });
      if ((await options.getByTestId('cast-unavailable').count()) > 0) {
        assert.equal((await options.getByTestId('cast-unavailable').innerText()).trim(), t.castUnavailable);
      }
      await screenshot(page, `quality-stage-${lang}${phone ? '-phone' : ''}`);
      await finish(opened);
    }
  });
});
