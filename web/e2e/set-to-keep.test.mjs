// End-to-end: the set to keep (issue 32). After the show, the ticket holder's stage offers
// "Download the set" with the songs listed as the file has them as chapters; the button
// downloads the .m4a (its chapters read back by ffprobe). In English on a desktop and in
// Persian on a phone (390 px), screenshots of both.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { aPicturedConcertWithAHolder, cast, e2eSuite, inPersian, screenshot, settle, sleep, startPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });
const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const TITLE = 'Evening Sines';
const SONGS = [
  ['Opening Tone', 0],
  ['Ballade für Ö', 2000],
];

let admin;
let concert;
let workDir;

before(async () => {
  await suite.ready;
  let audioFile;
  ({ admin, concert, workDir, audioFile } = await aPicturedConcertWithAHolder(suite, ACCOUNTS, { title: TITLE, frequency: 440 }));
  // About four seconds of show, two songs marked on it, then the artist ends it.
  const push = startPush(suite.server.url, audioFile, concert);
  await waitUntil(
    async () => {
      const live = await admin('GET', `/api/v1/events/${concert.id}/live`);
      return live.json?.payload?.recordedSeconds >= 4;
    },
    { timeout: 30_000, message: 'four seconds recorded' },
  );
  for (const [title, atMs] of SONGS) {
    const added = await admin('POST', `/api/v1/events/${concert.id}/markers`, { title, atMs });
    assert.equal(added.status, 201, JSON.stringify(added.json));
  }
  assert.equal((await admin('POST', `/api/v1/events/${concert.id}/end`)).status, 200);
  push.kill('SIGKILL');
  await sleep(200);
});

after(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The stage's download: the songs listed, then the file, whose chapters ffprobe reads. */
async function downloadsTheSet(page, shot) {
  await page.goto(`${suite.server.url}/stage/${concert.id}`);
  const set = page.getByTestId('download-set');
  await set.waitFor({ timeout: 15_000 });
  const items = set.getByTestId('download-set-chapters').locator('li');
  await waitUntil(async () => (await items.count()) === SONGS.length, { message: 'the songs listed' });
  for (const [index, [title]] of SONGS.entries()) assert.match(await items.nth(index).innerText(), new RegExp(title));
  await set.scrollIntoViewIfNeeded();
  await settle(page);
  await screenshot(page, shot);

  const [download] = await Promise.all([page.waitForEvent('download'), set.getByTestId('download-set-button').click()]);
  assert.match(download.suggestedFilename(), /Evening Sines.*\.m4a$/);
  const saved = join(workDir, `${shot}.m4a`);
  await download.saveAs(saved);
  const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_chapters', saved]).toString());
  assert.deepEqual(
    probed.chapters.map((c) => [c.tags.title, Math.round(Number(c.start_time) * 1000)]),
    SONGS,
  );
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
});
