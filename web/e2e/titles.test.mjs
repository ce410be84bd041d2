// End-to-end: song titles (issue 18). The real `encore push` sends AAC while the encoder's
// metadata call (what ezstream, liquidsoap and butt send, over HTTP with Basic auth
// source:<key>) names the song; a fan listening live in chromium sees "Now playing" change at
// their own position; the artist's live panel shows the current title and adds, edits and
// deletes titles by hand; after the show the replay lists the songs and a click seeks there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, PASSWORD, screenshot, sineFile, sleep, startPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const TITLE = 'Songs for the Road';
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
// The first song as ezstream sends it (`song`), the second as liquidsoap does (`title` and
// `artist` apart), with a quote, an ampersand and accents that the playlist percent-encodes.
const FIRST = 'Intro Jam';
const SECOND = { title: 'Say "Hi" & Café', artist: 'The Båndits' };

let admin;
let fan;
let sine;
let push;
let concert;

/** The encoder's metadata call on the HTTP port, as an Icecast source client sends it. */
async function sendTitle(params) {
  const query = new URLSearchParams({ mode: 'updinfo', mount: `/live/${concert.id}`, ...params });
  const response = await fetch(`${suite.server.url}/admin/metadata?${query}`, {
    headers: { Authorization: `Basic ${Buffer.from(`source:${concert.key}`).toString('base64')}` },
  });
  const body = await response.text();
  assert.equal(response.status, 200, body);
  assert.match(body, /Metadata update successful/);
}

const liveStatus = async () => (await admin('GET', `/api/v1/events/${concert.id}/live`)).json.payload;
// The app's one <audio> element lives outside the pages (the player stays while the fan moves).
const currentTime = (player) => player.page().getByTestId('player-audio').evaluate((audio) => audio.currentTime);
const nowPlaying = async (player) => {
  const line = player.getByTestId('player-now-playing-title');
  return (await line.count()) > 0 ? line.innerText() : null;
};

before(async () => {
  await suite.ready;
  admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
  sine = sineFile(523);
  concert = await createConcert(admin, TITLE);
  await buyTicket(fan, concert, fullName(ACCOUNTS.fan));
  push = startPush(suite.server.url, sine.path, concert);
});

after(async () => {
  push?.kill('SIGKILL');
  sine?.remove();
});

describe('Encore song titles', () => {
  let listener;
  let player;

  test('a fan listening live sees "Now playing" change when the encoder sends a new title', async () => {
    listener = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    const { page } = listener;
    await signInAs(page, ACCOUNTS.fan);
    await page.goto(`${suite.server.url}/my-events`);
    const card = page.getByTestId('ticket-card').filter({ hasText: TITLE });
    await card.getByTestId('player-listen').click();
    // The bar at the bottom opens the stage view, where the songs are.
    await page.getByTestId('mini-player-expand').click();
    player = page.getByTestId('stage');
    await player.getByTestId('player-live-badge').waitFor({ timeout: 30_000 });
    const from = await currentTime(player);
    await waitUntil(async () => (await currentTime(player)) > from + 1.5, { message: 'live playback' });
    assert.equal(await nowPlaying(player), null, 'no title before the encoder sends one');
    assert.equal(await page.getByTestId('mini-player-song').count(), 0, 'nor in the bar');

    await sendTitle({ song: FIRST });
    let sent = Date.now();
    await waitUntil(async () => (await nowPlaying(player)) === FIRST, { timeout: 8000, message: 'the first title' });
    const firstDelay = Date.now() - sent;

    // The rate limit keeps one title a second per show.
    await sleep(1200);
    await sendTitle({ title: SECOND.title, artist: SECOND.artist });
    sent = Date.now();
    await waitUntil(async () => (await nowPlaying(player)) === SECOND.title, { timeout: 8000, message: 'the second title' });
    const secondDelay = Date.now() - sent;
    assert.equal(await player.getByTestId('player-now-playing-artist').innerText(), SECOND.artist);
    // The bar at the bottom names the song too, under the concert, and so does the lock
    // screen (the song's artist; the concert as the album).
    const barSong = page.getByTestId('mini-player').getByTestId('mini-player-song');
    await waitUntil(async () => (await barSong.count()) > 0 && (await barSong.innerText()) === `♪ ${SECOND.title}`, { timeout: 8000, message: 'the song in the bar' });
    assert.equal(await page.getByTestId('mini-player-title').innerText(), TITLE);
    const lockScreen = await page.evaluate(() => {
      const m = navigator.mediaSession.metadata;
      return m ? { title: m.title, artist: m.artist, album: m.album } : null;
    });
    assert.deepEqual(lockScreen, { title: SECOND.title, artist: SECOND.artist, album: TITLE });
    // The listener is a little behind the live edge: the title changes when the song reaches
    // them, within a few seconds of the call (logged for the record, not timed as a test).
    console.log(`title shown ${firstDelay} ms and ${secondDelay} ms after the encoder's call`);
    // The stage view lists the songs so far, live too.
    await waitUntil(async () => (await player.getByTestId('player-chapter').count()) === 2, { message: 'the set list so far' });
    await screenshot(page, 'dark-player-now-playing');
  });

  test('the artist sees the current title and adds, edits and deletes titles by hand', async () => {
    const staff = await browser({ width: 1280, height: 1000 });
    const { page } = staff;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('manage-row').filter({ hasText: TITLE }).getByRole('button', { name: 'Sales and stream key' }).click();
    const panel = page.getByTestId('live-panel');
    const current = panel.getByTestId('live-now-playing-title');
    await current.filter({ hasText: SECOND.title }).waitFor();
    const rows = panel.getByTestId('marker');
    await waitUntil(async () => (await rows.count()) === 2, { message: 'the two encoder titles' });
    assert.deepEqual(await rows.getByTestId('marker-title').allInnerTexts(), [FIRST, SECOND.title]);

    // Added by hand at the live position: it is the current title at once.
    const add = panel.getByTestId('marker-add');
    await add.getByTestId('marker-title-input').fill('Thrid Song');
    await add.getByTestId('marker-submit').click();
    await current.filter({ hasText: 'Thrid Song' }).waitFor();
    await waitUntil(async () => (await rows.count()) === 3, { message: 'the title added by hand' });

    // A typo fixed: the title and an artist.
    const typo = rows.filter({ hasText: 'Thrid Song' });
    await typo.getByTestId('marker-edit-start').click();
    const edit = panel.getByTestId('marker-edit');
    await edit.getByTestId('marker-title-input').fill('Third Song');
    await edit.getByTestId('marker-artist-input').fill('Guest Singer');
    await edit.getByTestId('marker-submit').click();
    await rows.filter({ hasText: 'Third Song' }).getByTestId('marker-artist').filter({ hasText: 'Guest Singer' }).waitFor();
    await current.filter({ hasText: 'Third Song' }).waitFor();

    // One too many, deleted after the confirmation.
    await sleep(1100);
    await add.getByTestId('marker-title-input').fill('Wrong Button');
    await add.getByTestId('marker-submit').click();
    await waitUntil(async () => (await rows.count()) === 4, { message: 'the extra title' });
    await rows.filter({ hasText: 'Wrong Button' }).getByTestId('marker-delete').click();
    await page.getByTestId('marker-delete-confirm').click();
    await waitUntil(async () => (await rows.count()) === 3, { message: 'the deletion' });
    await current.filter({ hasText: 'Third Song' }).waitFor();
    const markers = (await admin('GET', `/api/v1/events/${concert.id}/markers`)).json.payload;
    assert.deepEqual(
      markers.map((m) => [m.title, m.artist, m.source]),
      [
        [FIRST, null, 'encoder'],
        [SECOND.title, SECOND.artist, 'encoder'],
        ['Third Song', 'Guest Singer', 'artist'],
      ],
    );
    await screenshot(page, 'dark-live-panel-titles');

    // The fan's player follows the edit through its next playlist.
    await waitUntil(async () => (await nowPlaying(player)) === 'Third Song', { timeout: 10_000, message: 'the edited title at the fan' });
    await finish(staff);
  });

  test('in the replay the songs are chapters; clicking one seeks there', async () => {
    // A few more seconds of the last song, then the show ends: the player turns to the replay.
    const recorded = (await liveStatus()).recordedSeconds;
    await waitUntil(async () => (await liveStatus()).recordedSeconds >= recorded + 3, { message: 'more of the show' });
    assert.equal((await admin('POST', `/api/v1/events/${concert.id}/end`)).status, 200);
    await player.getByTestId('player-replay').waitFor({ timeout: 15_000 });

    const chapters = player.getByTestId('player-chapter');
    await waitUntil(async () => (await chapters.count()) === 3, { message: 'three chapters' });
    const texts = await chapters.allInnerTexts();
    assert.match(texts[0], new RegExp(FIRST));
    assert.ok(texts[1].includes(SECOND.title) && texts[1].includes(SECOND.artist), texts[1]);
    assert.match(texts[2], /Third Song/);
    const starts = await Promise.all([0, 1, 2].map(async (i) => Number(await chapters.nth(i).getAttribute('data-start'))));
    assert.ok(starts[0] > 0 && starts[0] < starts[1] && starts[1] < starts[2], `chapters at ${starts.join(', ')}`);
    // Each chapter starts where the server placed its marker (atMs on the show's timeline).
    const markers = (await admin('GET', `/api/v1/events/${concert.id}/markers`)).json.payload;
    markers.forEach((marker, i) => {
      assert.ok(Math.abs(starts[i] - marker.atMs / 1000) < 0.5, `chapter ${i} at ${starts[i]} s, marker at ${marker.atMs} ms`);
    });

    for (const i of [0, 1]) {
      await chapters.nth(i).click();
      await waitUntil(
        async () => {
          const time = await currentTime(player);
          return time >= starts[i] - 0.1 && time < starts[i + 1];
        },
        { timeout: 8000, message: `the seek to chapter ${i}` },
      );
      const title = i === 0 ? FIRST : SECOND.title;
      await waitUntil(async () => (await nowPlaying(player)) === title, { timeout: 3000, message: `"${title}" playing` });
      assert.equal(await chapters.nth(i).getAttribute('aria-current'), 'true');
    }
    // It plays on from there.
    const from = await currentTime(player);
    await waitUntil(async () => (await currentTime(player)) > from + 0.5, { message: 'playback after the seek' });
    await screenshot(listener.page, 'dark-player-chapters');
    await finish(listener);
  });

  test('in Persian (right to left) the artist reads the show\'s titles in the list', async () => {
    const staff = await browser({ width: 1280, height: 1000 });
    const { page } = staff;
    await page.addInitScript(() => {
      localStorage.setItem('theme-preset', 'light');
      localStorage.setItem('language', 'ir');
    });
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    await page.getByTestId('manage-row').filter({ hasText: TITLE }).getByRole('button', { name: 'فروش و کلید پخش' }).click();
    const titles = page.getByTestId('markers-panel');
    await titles.getByText('نام آهنگ‌ها').waitFor();
    await waitUntil(async () => (await titles.getByTestId('marker').count()) === 3, { message: 'the three titles' });
    assert.deepEqual(await titles.getByTestId('marker-title').allInnerTexts(), [FIRST, SECOND.title, 'Third Song']);
    // The show has ended: titles are still edited here, no longer added at a live position.
    assert.equal(await titles.getByTestId('marker-add').count(), 0);
    await page.waitForTimeout(400); // the drawer's slide-in transition
    await screenshot(page, 'light-rtl-live-panel-titles');
    await finish(staff);
  });
});
