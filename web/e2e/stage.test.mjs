// End-to-end: the player in the app shell (issue 15). A fan starts a live show that the real
// `encore push` sends, moves through four pages (and the error and auth pages a signed-in fan
// can still reach) while the audio element keeps playing, reads
// the latency and the listeners in the bar at the bottom, and the operating system's Media
// Session and the tab's title name the concert; the stage view plays and pauses with Space;
// in Persian the sliders' fill and handle agree (measured), and the replay says in hours and minutes what is left.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { aPicturedConcertWithAHolder, cast, e2eSuite, screenshot, startPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const TITLE = 'Midnight Sines';
const ARTIST = `${TITLE} band`;
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
// A second device taking the ticket over makes the first one's stream URLs answer 403.
const STREAM_ANSWERS = /status of 40[34] .*\(http:\/\/[^)]*\/stream\//;

let admin;
let workDir;
let push;
let concert;

const audio = (page) => page.getByTestId('player-audio');
const currentTime = (page) => audio(page).evaluate((element) => element.currentTime);

/** The audio element's clock moves on by `seconds` from where it is now. */
async function advances(page, seconds, message) {
  const from = await currentTime(page);
  await waitUntil(async () => (await currentTime(page)) >= from + seconds, { timeout: 15_000, message });
}

/** Where a slider's fill ends and its handle's centre are, on the page (px), and its value. */
function measureSlider(slider) {
  return slider.evaluate((root) => {
    const rect = (selector) => root.querySelector(selector).getBoundingClientRect();
    const track = rect('.mantine-Slider-track');
    const bar = rect('.mantine-Slider-bar');
    const thumb = rect('.mantine-Slider-thumb');
    const handle = root.querySelector('[role="slider"]');
    const value = Number(handle.getAttribute('aria-valuenow'));
    const min = Number(handle.getAttribute('aria-valuemin'));
    const max = Number(handle.getAttribute('aria-valuemax'));
    return {
      trackLeft: track.left,
      trackWidth: track.width,
      barLeft: bar.left,
      barRight: bar.right,
      thumbCentre: thumb.left + thumb.width / 2,
      thumbWidth: thumb.width,
      fraction: (value - min) / (max - min),
    };
  });
}

/**
 * The element's box once the layout has settled: the same position and size over several
 * animation frames in a row (the page may still be moving things in: the replay line, the
 * fonts). Gives up after about ten seconds of frames.
 */
async function settledBox(locator) {
  await locator.evaluate(
    (element) =>
      new Promise((resolve, reject) => {
        let last = '';
        let still = 0;
        let frames = 0;
        const frame = () => {
          const r = element.getBoundingClientRect();
          const box = `${r.x},${r.y},${r.width},${r.height}`;
          still = box === last && r.width > 0 ? still + 1 : 0;
          last = box;
          frames += 1;
          if (still >= 5) resolve();
          else if (frames > 600) reject(new Error(`the box never settled: ${box}`));
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  return locator.boundingBox();
}

/** The fill starts at the track's start, ends under the handle, and both sit where the value says. */
function assertAgree(m, name) {
  const expected = m.trackLeft + m.fraction * m.trackWidth;
  const slack = m.thumbWidth / 2 + 2;
  assert.ok(Math.abs(m.thumbCentre - expected) <= slack, `${name}: handle at ${m.thumbCentre}, value at ${expected} (${JSON.stringify(m)})`);
  assert.ok(Math.abs(m.barRight - m.thumbCentre) <= slack, `${name}: fill ends at ${m.barRight}, handle at ${m.thumbCentre} (${JSON.stringify(m)})`);
  assert.ok(m.barLeft <= m.trackLeft + slack, `${name}: fill starts at ${m.barLeft}, track at ${m.trackLeft}`);
}

before(async () => {
  await suite.ready;
  // The concert's picture: the artwork of the bar, the lock screen and the stage.
  let audioFile;
  ({ admin, concert, workDir, audioFile } = await aPicturedConcertWithAHolder(suite, ACCOUNTS, {
    title: TITLE,
    frequency: 392,
    gradient: 'gradients=s=800x450:c0=0x3b1e8a:c1=0xe0406a:c2=0xf5b041:n=3:seed=7',
  }));
  push = startPush(suite.server.url, audioFile, concert);
});

after(async () => {
  push?.kill('SIGKILL');
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('Encore player in the app shell', () => {
  test('a fan starts a live show and it plays on through four pages; the bar shows the latency and the listeners; the OS and the tab name the concert', async () => {
    const fan = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    const { page } = fan;
    await signInAs(page, ACCOUNTS.fan);
    await page.goto(`${suite.server.url}/my-events`);
    await page.evaluate(() => {
      window.encoreSamePage = true;
    });
    await page.getByTestId('ticket-card').filter({ hasText: TITLE }).getByTestId('player-listen').click();
    const bar = page.getByTestId('mini-player');
    await bar.and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
    await advances(page, 1.5, 'live playback');

    // "● LIVE · 1.0 s behind": the latency hls.js measures, in the bar.
    const badge = bar.getByTestId('player-live-badge');
    // hls.js reads 0 until it has timed a part against the live edge: wait for a measure.
    await waitUntil(async () => /^● LIVE · \d+\.\d s behind$/.test(await badge.innerText()) && Number(await bar.getAttribute('data-latency')) > 0, { message: 'the latency in the bar' });
    const latency = Number(await bar.getAttribute('data-latency'));
    const shown = Number((await badge.innerText()).match(/(\d+\.\d)/)[1]);
    assert.ok(latency > 0 && latency < 5, `latency ${latency} s`);
    assert.ok(Math.abs(shown - latency) < 0.6, `shown ${shown} s, measured ${latency} s`);
    console.log(`mini-player latency: ${latency.toFixed(2)} s behind live`);

    // Four pages through the menu: the same audio element plays on, its clock moving.
    const menu = page.getByTestId('sidebar');
    for (const [label, path] of [['Events', '/events'], ['Dashboard', '/dashboard'], ['About', '/about'], ['Settings', '/settings']]) {
      await menu.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(new RegExp(`${path}$`));
      await bar.waitFor();
      await advances(page, 1, `playback on ${path}`);
      assert.equal(await audio(page).evaluate((element) => element.paused), false, `playing on ${path}`);
    }
    // Out of the shell to the home page (the breadcrumb's Home): the bar comes along.
    await page.locator('.mantine-Breadcrumbs-root').getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL(/\/home$/);
    await page.getByTestId('floating-player').getByTestId('mini-player').waitFor();
    await advances(page, 1, 'playback on /home');
    await page.getByTestId('home-dashboard').click();
    await page.waitForURL(/\/dashboard$/);
    await bar.waitFor();
    // Pages outside the shell a signed-in fan still reaches (as a link in the app would take
    // them, without reloading): a staff page's 403, a 404, an auth page (lost password).
    for (const [path, landing] of [['/users', '/403'], ['/404', '/404'], ['/auth/lostpassword', '/auth/lostpassword']]) {
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await page.waitForURL(new RegExp(`${landing}$`));
      await page.getByTestId('floating-player').getByTestId('mini-player').waitFor();
      await advances(page, 1, `playback on ${landing}`);
    }
    // From the 404's way back to the dashboard.
    await page.goBack();
    await page.waitForURL(/\/404$/);
    await page.getByRole('link', { name: 'Back to dashboard' }).click();
    await page.waitForURL(/\/dashboard$/);
    await bar.waitFor();
    assert.equal(await page.evaluate(() => window.encoreSamePage), true, 'the page was never reloaded');
    assert.equal(await audio(page).count(), 1, 'one audio element');

    // The listeners now, from the server's live figures.
    await bar.locator('[data-testid="player-listeners"][data-count="1"]').waitFor({ timeout: 25_000 });
    assert.equal(await bar.getByTestId('player-listeners').innerText(), '1 listening now');

    // The lock screen and the OS media controls: title, artist, artwork; the tab's title.
    const session = await page.evaluate(() => ({
      title: navigator.mediaSession.metadata?.title,
      artist: navigator.mediaSession.metadata?.artist,
      artwork: navigator.mediaSession.metadata?.artwork.map((image) => image.src) ?? [],
      state: navigator.mediaSession.playbackState,
    }));
    assert.equal(session.title, TITLE);
    assert.equal(session.artist, ARTIST);
    assert.equal(session.state, 'playing');
    assert.ok(session.artwork.length > 0 && session.artwork.every((src) => src.startsWith(suite.server.url)), JSON.stringify(session.artwork));
    const artwork = await page.evaluate(async (src) => (await fetch(src)).status, session.artwork[0]);
    assert.equal(artwork, 200, 'the artwork loads');
    assert.equal(await page.title(), `▶ ${TITLE} · ${ARTIST}`);
    await screenshot(page, 'dark-mini-player');

    // The stage view: the picture, the controls; Space pauses and plays.
    await bar.getByTestId('mini-player-expand').click();
    await page.waitForURL(new RegExp(`/stage/${concert.id}$`));
    const stage = page.getByTestId('stage');
    await stage.getByTestId('stage-picture').waitFor();
    await stage.getByTestId('player-live-badge').waitFor();
    await screenshot(page, 'dark-stage-live');
    await page.keyboard.press('Space');
    await waitUntil(() => audio(page).evaluate((element) => element.paused), { message: 'Space to pause' });
    await bar.and(page.locator('[data-paused="true"]')).waitFor();
    await waitUntil(async () => (await page.title()) === 'Stage · Encore', { message: 'the page title back while paused' });
    assert.equal(await page.evaluate(() => navigator.mediaSession.playbackState), 'paused');
    await page.keyboard.press('Space');
    await advances(page, 1, 'Space to play again');

    // Signing out silences the player.
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL(/\/auth\/login$/);
    await waitUntil(() => audio(page).evaluate((element) => element.paused), { message: 'the music to stop at sign-out' });
    assert.equal(await page.evaluate(() => navigator.mediaSession.metadata), null);

    // Someone who opens the stage without listening reads what the concert is doing.
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/stage/${concert.id}`);
    await page.getByTestId('stage').getByTestId('state-badge').filter({ hasText: 'Live now' }).waitFor();
    await finish(fan);
  });

  test('in Persian the seek and volume sliders fill and move the same way, in Persian digits; the replay says in hours and minutes what is left', async () => {
    const fan = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    const { page } = fan;
    await page.addInitScript(() => {
      localStorage.setItem('theme-preset', 'light');
      localStorage.setItem('language', 'ir');
    });
    await signInAs(page, ACCOUNTS.fan);
    // A link to the stage view: the concert with its Listen button.
    await page.goto(`${suite.server.url}/stage/${concert.id}`);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    const stage = page.getByTestId('stage');
    await stage.getByTestId('player-listen').click();
    await stage.and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
    await advances(page, 1, 'playback in Persian');

    // Back a third of the show, so the handle is well away from either end.
    const seek = stage.getByTestId('player-seek');
    await waitUntil(() => audio(page).evaluate((element) => element.seekable.length > 0 && element.seekable.end(0) > 6), { message: 'a few seconds of show' });
    await audio(page).evaluate((element) => {
      element.currentTime = element.seekable.end(0) / 3;
    });
    await stage.getByTestId('player-back-to-live').waitFor();
    // Measured once the slider stands still and shows the new position (while the player
    // catches up with the seek it may be disabled a moment, its handle hidden).
    await settledBox(seek.locator('.mantine-Slider-track'));
    const seekAt = await waitUntil(
      async () => {
        const m = await measureSlider(seek);
        return m.thumbWidth > 0 && m.fraction > 0 ? m : null;
      },
      { timeout: 10_000, message: 'the seek slider at its new position' },
    );
    assertAgree(seekAt, 'seek');
    assert.ok(seekAt.fraction > 0.15 && seekAt.fraction < 0.6, `seek at ${seekAt.fraction}`);

    // A click at 30 % of the volume slider from its left sets 30 %, and it is drawn there.
    // Clicked only once the slider shows its value and stands still: a click while the
    // stage is still laying out lands beside it.
    const volume = stage.getByTestId('player-volume');
    const handle = volume.locator('[role="slider"]');
    await volume.locator('[role="slider"][aria-valuenow="1"]').waitFor();
    const track = await settledBox(volume.locator('.mantine-Slider-track'));
    await page.mouse.click(track.x + track.width * 0.3, track.y + track.height / 2);
    await waitUntil(async () => (await handle.getAttribute('aria-valuenow')) !== '1', { timeout: 5000, message: 'the click to move the volume' });
    const level = await audio(page).evaluate((element) => element.volume);
    assert.ok(Math.abs(level - 0.3) <= 0.05, `volume ${level}`);
    const volumeAt = await measureSlider(volume);
    assertAgree(volumeAt, 'volume');
    assert.ok(Math.abs(volumeAt.fraction - level) < 0.01);

    // One digit system: the clock and the distance to live in Persian digits.
    assert.match(await stage.getByTestId('player-time').innerText(), /^[۰-۹]+:[۰-۹]{2}$/);
    assert.match(await stage.getByTestId('player-behind').innerText(), /^-[۰-۹]+:[۰-۹]{2}$/);
    await screenshot(page, 'light-rtl-stage');

    // The artist ends the show: the replay says until when, counting down.
    assert.equal((await admin('POST', `/api/v1/events/${concert.id}/end`)).status, 200);
    await stage.getByTestId('player-replay').waitFor({ timeout: 15_000 });
    const until = stage.getByTestId('player-replay-until');
    const first = await until.innerText();
    assert.match(first, /بازپخش تا .* در دسترس است/);
    assert.doesNotMatch(first, /[0-9]/, 'no Latin digits in Persian');
    // What is left reads in hours and minutes ("23 h 58 min"), not as a ticking clock.
    assert.match(first, /\([۰-۹]+ ساعت و [۰-۹]+ دقیقه مانده\)/);
    await screenshot(page, 'light-rtl-stage-replay');

    // The home page lists it among the replays, its card linking to its public page.
    await page.goto(`${suite.server.url}/home`);
    const card = page.getByTestId('home-replay').getByTestId('home-event').filter({ hasText: TITLE });
    assert.equal(await card.getByTestId('event-title-link').getAttribute('href'), `/concerts/${concert.id}`);
    assert.equal(await page.getByTestId('home-live').getByTestId('home-event').filter({ hasText: TITLE }).count(), 0);
    await finish(fan, [STREAM_ANSWERS]);
  });
});
