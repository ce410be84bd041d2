// End-to-end: the set to keep (issue 32). After the show, the ticket holder's stage offers
// "Download the set" with the songs listed as the file has them as chapters; the button
// downloads the .m4a (its chapters read back by ffprobe). In English on a desktop and in
// Persian on a phone (390 px), screenshots of both. An AAC show offers the .m4a only; after a
// lossless show (an Ogg FLAC encoder) the stage offers the .flac beside it, whose download is
// a FLAC file with the same chapters (in Persian on a phone, screenshot).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { aPicturedConcertWithAHolder, cast, e2eSuite, inPersian, layoutProblems, screenshot, settle, sleep, startOggFlacPush, startPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });
const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const TITLE = 'Evening Sines';
const LOSSLESS_TITLE = 'Lossless Sines';
const SONGS = [
  ['Opening Tone', 0],
  ['Ballade für Ö', 2000],
];
const LOCALES = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');
const words = (lang) => JSON.parse(readFileSync(join(LOCALES, lang, 'stage.json'), 'utf8'));

let admin;
let concert;
let losslessConcert;
const workDirs = [];

/** About four seconds of show from `push`, the songs marked on it, then the artist ends it. */
async function aShowWithSongs(show, push) {
  await waitUntil(
    async () => {
      const live = await admin('GET', `/api/v1/events/${show.id}/live`);
      return live.json?.payload?.recordedSeconds >= 4;
    },
    { timeout: 30_000, message: 'four seconds recorded' },
  );
  for (const [title, atMs] of SONGS) {
    const added = await admin('POST', `/api/v1/events/${show.id}/markers`, { title, atMs });
    assert.equal(added.status, 201, JSON.stringify(added.json));
  }
  assert.equal((await admin('POST', `/api/v1/events/${show.id}/end`)).status, 200);
  push.kill('SIGKILL');
}

before(async () => {
  await suite.ready;
  const aac = await aPicturedConcertWithAHolder(suite, ACCOUNTS, { title: TITLE, frequency: 440 });
  const flac = await aPicturedConcertWithAHolder(suite, ACCOUNTS, { title: LOSSLESS_TITLE, frequency: 660 });
  ({ admin, concert } = aac);
  losslessConcert = flac.concert;
  workDirs.push(aac.workDir, flac.workDir);
  await Promise.all([
    aShowWithSongs(concert, startPush(suite.server.url, aac.audioFile, concert)),
    aShowWithSongs(losslessConcert, startOggFlacPush(suite.server.url, losslessConcert, flac.workDir)),
  ]);
  await sleep(200);
});

after(() => {
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

/** The chapters ffprobe reads in a downloaded file: [title, start in ms]. */
function chaptersOf(path) {
  const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_chapters', path]).toString());
  return probed.chapters.map((c) => [c.tags.title, Math.round(Number(c.start_time) * 1000)]);
}

/** Presses `button` and saves what it downloads: the saved file's path and suggested name. */
async function save(page, button, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const saved = join(workDirs[0], name);
  await download.saveAs(saved);
  return { saved, suggested: download.suggestedFilename() };
}

/** The stage of `show` after it, its download card shown with the songs listed, once the
 * listening status (which says whether there is a FLAC) has answered. */
async function openTheSet(page, show) {
  const status = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === `/api/v1/stream/${show.id}/session`);
  await page.goto(`${suite.server.url}/stage/${show.id}`);
  const set = page.getByTestId('download-set');
  await set.waitFor({ timeout: 15_000 });
  assert.equal((await status).status(), 200);
  const items = set.getByTestId('download-set-chapters').locator('li');
  await waitUntil(async () => (await items.count()) === SONGS.length, { message: 'the songs listed' });
  for (const [index, [title]] of SONGS.entries()) assert.match(await items.nth(index).innerText(), new RegExp(title));
  return set;
}

/** The stage's download of an AAC show: the songs listed, the .m4a only, whose chapters
 * ffprobe reads. */
async function downloadsTheSet(page, shot) {
  const set = await openTheSet(page, concert);
  assert.equal(await set.getByTestId('download-set-flac').count(), 0, 'an AAC show offers no FLAC');
  await set.scrollIntoViewIfNeeded();
  await settle(page);
  await screenshot(page, shot);

  const { saved, suggested } = await save(page, set.getByTestId('download-set-button'), `${shot}.m4a`);
  assert.match(suggested, /Evening Sines.*\.m4a$/);
  assert.deepEqual(chaptersOf(saved), SONGS);
}

describe('the set to keep', () => {
  test('after the show the holder downloads the set from the stage, its songs listed as its chapters', async () => {
    const fan = await browser({ width: 1280, height: 900 });
    await signInAs(fan.page, ACCOUNTS.fan);
    await downloadsTheSet(fan.page, 'set-to-keep');
    await finish(fan);
  });

  test('in Persian on a phone, the same download, right to left', async () => {
    const fan = await browser({ width: 390, height: 844 });
    await inPersian(fan.page);
    await signInAs(fan.page, ACCOUNTS.fan);
    await downloadsTheSet(fan.page, 'set-to-keep-fa-phone');
    assert.equal(await fan.page.locator('html').getAttribute('dir'), 'rtl');
    assert.match(await fan.page.getByTestId('download-set').innerText(), /دانلود اجرا/);
    await finish(fan);
  });

  test('after a lossless show, in Persian on a phone, the stage offers the FLAC beside the .m4a', async () => {
    const fan = await browser({ width: 390, height: 844 });
    const { page } = fan;
    await inPersian(page);
    await signInAs(page, ACCOUNTS.fan);
    const set = await openTheSet(page, losslessConcert);
    const flac = set.getByTestId('download-set-flac');
    await flac.waitFor();
    const fa = words('ir').set;
    assert.equal((await flac.innerText()).trim(), fa.downloadFlac);
    assert.equal((await set.getByTestId('download-set-flac-about').innerText()).trim(), fa.aboutFlac);
    // The songs' times in Persian digits, as on the .m4a's card.
    assert.match(await set.getByTestId('download-set-chapters').innerText(), /۰:۰۲/);
    await flac.scrollIntoViewIfNeeded();
    await settle(page);
    const problems = (await page.evaluate(layoutProblems, { minTap: 0 })).filter((problem) => problem.includes('download-set'));
    assert.deepEqual(problems, [], 'the card fits the phone');
    await screenshot(page, 'set-to-keep-flac-fa-phone');

    const m4a = await save(page, set.getByTestId('download-set-button'), 'lossless.m4a');
    assert.match(m4a.suggested, /Lossless Sines.*\.m4a$/);
    assert.deepEqual(chaptersOf(m4a.saved), SONGS);
    const file = await save(page, flac, 'lossless.flac');
    assert.match(file.suggested, /Lossless Sines.*\.flac$/);
    assert.equal(readFileSync(file.saved).subarray(0, 4).toString('latin1'), 'fLaC');
    assert.deepEqual(chaptersOf(file.saved), SONGS);
    await finish(fan);
  });
});
