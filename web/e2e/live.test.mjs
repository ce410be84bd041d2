// End-to-end: live audio. A fan listens with hls.js in Debian's chromium while the real
// `encore push` sends AAC; a second device takes the ticket over; the artist's live panel
// shows the publisher, ends the show, and goes live from the browser's (fake) microphone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert as publishConcert, e2eSuite, fullName, PASSWORD, screenshot, sineFile, sleep, startPush as pushAudio, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const LIVE_TITLE = 'Sine Waves at Dawn';
const MIC_TITLE = 'Open Mic Night';
const LOSSLESS_MIC_TITLE = 'Unplugged and Uncompressed';
const SOON_TITLE = 'Rehearsal in Ten';
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
const MIC_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', ...PLAYBACK_ARGS];
// The playlist answers 404 until the artist starts and 403 once another device took over:
// the browser logs both requests, which the player expects.
const STREAM_ANSWERS = /status of 40[34] .*\(http:\/\/[^)]*\/stream\//;

let admin;
let fan;
let sine;
const pushes = new Set();
const concerts = {};

/** A published concert starting now; `buy` has the fan pay for it with the test card. */
async function createConcert(title, { buy, startsAt = new Date() }) {
  const concert = await publishConcert(admin, title, { startsAt });
  if (buy) await buyTicket(fan, concert, fullName(ACCOUNTS.fan));
  return concert;
}

/** `encore push` of the sine file, paced in real time, looping. */
function startPush(concert) {
  const child = pushAudio(suite.server.url, sine.path, concert);
  pushes.add(child);
  void child.exited.then(() => pushes.delete(child));
  return child;
}

async function stopPush(child) {
  child.kill('SIGKILL');
  await child.exited;
}

const liveStatus = async (concert) => (await admin('GET', `/api/v1/events/${concert.id}/live`)).json.payload;

const ticket = (page, title) => page.getByTestId('ticket-card').filter({ hasText: title });
/** The bar at the bottom of the shell: the app's one player. */
const miniPlayer = (page) => page.getByTestId('mini-player');
// The <audio> element lives outside the pages, so that it keeps playing across them.
const currentTime = (player) => player.page().getByTestId('player-audio').evaluate((audio) => audio.currentTime);

/** Waits until the audio element's clock moves on by `seconds` from where it is now. */
async function advances(player, seconds, message) {
  const from = await currentTime(player);
  await waitUntil(async () => (await currentTime(player)) >= from + seconds, { timeout: 15_000, message });
}

before(async () => {
  await suite.ready;
  admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
  sine = sineFile(440);
  concerts.live = await createConcert(LIVE_TITLE, { buy: true });
  concerts.mic = await createConcert(MIC_TITLE, { buy: false });
  concerts.losslessMic = await createConcert(LOSSLESS_MIC_TITLE, { buy: true });
  // Sessions open 15 minutes before the start: this one counts down while it waits.
  concerts.soon = await createConcert(SOON_TITLE, { buy: true, startsAt: new Date(Date.now() + 10 * 60_000) });
});

after(async () => {
  for (const child of pushes) child.kill('SIGKILL');
  sine?.remove();
});

describe('Encore live audio', () => {
  let first;

  test('the player waits for the artist, starts by itself, plays live, seeks back and survives a publisher reconnect', async () => {
    first = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    const { page } = first;
    // While it waits the player asks whether the show aired, never for a playlist that
    // cannot exist yet (issue 29: no 404s while waiting).
    const playlistAsks = [];
    page.on('request', (request) => {
      if (/\/stream\/[^/]+\/index\.m3u8/.test(request.url())) playlistAsks.push(request.url());
    });
    await signInAs(page, ACCOUNTS.fan);
    await page.goto(`${suite.server.url}/my-events`);
    const card = ticket(page, LIVE_TITLE);
    await card.getByTestId('player-listen').click();
    const player = miniPlayer(page);
    // The bar says it short ("Waiting…"), the whole sentence in its title.
    await player.getByTestId('player-waiting').filter({ hasText: 'Waiting…' }).waitFor();
    assert.equal(await player.getByTestId('player-waiting').locator('[title]').first().getAttribute('title'), 'Waiting for the artist to start…');
    await sleep(4000); // more than one retry of the wait
    assert.deepEqual(playlistAsks, [], 'no playlist asked for before anything aired');
    assert.equal(await player.getByTestId('player-live-badge').count(), 0);
    await screenshot(page, 'dark-player-waiting');

    let push = startPush(concerts.live);
    await waitUntil(async () => (await player.getAttribute('data-phase')) === 'playing', { message: 'the player to start by itself' });
    await advances(player, 2, 'live playback to start');
    await player.getByTestId('player-live-badge').waitFor();
    assert.equal(await player.getAttribute('data-live'), 'true');
    await screenshot(page, 'dark-player-live');

    // The whole show is seekable while live: back to the start, it keeps playing. The show
    // is first let grow well past the 3 s the player still calls "live", so that after the
    // seek it is clearly behind and offers "Back to live" whatever the machine's pace.
    await waitUntil(async () => (await liveStatus(concerts.live)).recordedSeconds >= 9, { message: 'nine seconds of show' });
    await page.getByTestId('player-audio').evaluate((audio) => {
      audio.currentTime = 0.5;
    });
    await waitUntil(async () => (await currentTime(player)) < 3, { message: 'the seek to the start' });
    await advances(player, 1.5, 'playback after seeking to the start');
    await player.getByTestId('player-back-to-live').waitFor();
    await player.getByTestId('player-back-to-live').click();
    await player.getByTestId('player-live-badge').waitFor();

    // The encoder drops: "The artist is reconnecting…", no LIVE; it comes back within
    // seconds: the listener keeps going, LIVE again.
    await stopPush(push);
    await player.getByTestId('player-reconnecting').waitFor({ timeout: 15_000 });
    assert.equal(await player.getByTestId('player-live-badge').count(), 0, 'no LIVE while the artist is away');
    assert.match(await player.getByTestId('player-reconnecting').textContent(), /The artist is reconnecting/);
    await screenshot(page, 'dark-player-reconnecting');
    push = startPush(concerts.live);
    await waitUntil(async () => (await liveStatus(concerts.live)).publisherConnected, { message: 'the publisher to reconnect' });
    // Past CAN-SKIP-UNTIL (6 s): hls.js merges delta updates that skip the discontinuity.
    await advances(player, 9, 'playback across the reconnect');
    assert.equal(await player.getAttribute('data-phase'), 'playing');
  });

  test('a second device on the same ticket takes over; "Listen here" takes it back', async () => {
    // The second device reads Persian (right to left) in the light theme.
    const second = await browser({ args: PLAYBACK_ARGS });
    const other = second.page;
    await other.addInitScript(() => {
      localStorage.setItem('theme-preset', 'light');
      localStorage.setItem('language', 'ir');
    });
    await signInAs(other, ACCOUNTS.fan);
    // The second device opens the concert's details from the events page.
    await other.goto(`${suite.server.url}/events?event=${concerts.live.id}`);
    const details = other.getByTestId('event-details');
    await details.getByTestId('player-listen').click();
    const otherPlayer = miniPlayer(other);
    await advances(otherPlayer, 1, 'playback on the second device');
    assert.equal(await other.locator('html').getAttribute('dir'), 'rtl');
    await otherPlayer.getByTestId('player-live-badge').waitFor();
    await other.waitForTimeout(400); // the drawer's slide-in transition
    await screenshot(other, 'light-rtl-player-live');

    const { page } = first;
    const player = miniPlayer(page);
    const denied = player.getByTestId('player-denied');
    await denied.waitFor({ timeout: 10_000 });
    assert.equal(await denied.getAttribute('data-denial'), 'superseded');
    assert.match(await denied.innerText(), /You are listening on another device/);
    assert.ok(await page.getByTestId('player-audio').evaluate((audio) => audio.paused), 'the first device stopped');
    await screenshot(page, 'dark-player-superseded');

    await denied.getByTestId('player-listen-here').click();
    await advances(player, 1, 'playback back on the first device');
    await otherPlayer.getByTestId('player-denied').waitFor({ timeout: 10_000 });
    await screenshot(other, 'light-rtl-player-superseded');
    await finish(second, [STREAM_ANSWERS]);
  });

  test('before an upcoming concert the player counts down to the start', async () => {
    // Another tab of the first device (the first tab keeps playing the live concert).
    const page = await first.context.newPage();
    await page.goto(`${suite.server.url}/my-events`);
    const card = ticket(page, SOON_TITLE);
    await card.getByTestId('player-listen').click();
    const waiting = miniPlayer(page).getByTestId('player-waiting');
    await waiting.waitFor();
    assert.match(await waiting.innerText(), /The concert starts in \u2066?00:(09|10):\d\d\u2069?/);
    await screenshot(page, 'dark-player-countdown');
    await page.close();
  });

  test('the artist sees the stream key, the encoder settings and the publisher; End show turns the player to replay', async () => {
    const staff = await browser({ width: 1280, height: 900 });
    const { page } = staff;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('manage-row').filter({ hasText: LIVE_TITLE }).getByRole('button', { name: 'Sales and stream key' }).click();
    const panel = page.getByTestId('live-panel');
    await panel.getByTestId('live-status').and(page.locator('[data-state="connected"]')).waitFor();
    // The key was shown once, at rotation: now only its last characters, never the key.
    const hint = panel.getByTestId('stream-key-hint');
    await hint.waitFor();
    assert.match(await hint.innerText(), new RegExp(`ends in ${concerts.live.key.slice(-4)}`));
    assert.doesNotMatch(await panel.innerText(), new RegExp(concerts.live.key));
    assert.match(
      await panel.getByTestId('ffmpeg-example').innerText(),
      new RegExp(`^ffmpeg -re -i input\\.mp3 -c:a aac -b:a 128k -f adts -content_type audio/aac icecast://source:STREAM_KEY@127\\.0\\.0\\.1:\\d+/live/${concerts.live.id}$`),
    );
    const recorded = Number(await panel.getByTestId('live-recorded').getAttribute('data-seconds'));
    assert.ok(recorded > 5, `recorded ${recorded} s`);
    await screenshot(page, 'dark-live-panel');

    await panel.getByTestId('live-end').click();
    await page.getByTestId('live-end-confirm').click();
    await panel.getByTestId('live-status').and(page.locator('[data-state="ended"]')).waitFor();
    assert.equal((await liveStatus(concerts.live)).ended, true);

    // The listener's playlist now ends (EXT-X-ENDLIST): the player shows the replay.
    const player = miniPlayer(first.page);
    await player.getByTestId('player-replay').waitFor({ timeout: 15_000 });
    assert.equal(await player.getAttribute('data-live'), 'false');
    await screenshot(first.page, 'dark-player-replay');
    await finish(staff);
    await finish(first, [STREAM_ANSWERS]);
  });

  test('the artist goes live from the browser microphone: connected, and the recording grows', async () => {
    const staff = await browser({ width: 1280, height: 900, args: MIC_ARGS });
    const { page } = staff;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('manage-row').filter({ hasText: MIC_TITLE }).getByRole('button', { name: 'Sales and stream key' }).click();
    const panel = page.getByTestId('live-panel');
    // What each go-live tells the server it sends (its first text frame).
    const sent = [];
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        if (typeof payload === 'string' && payload.includes('mimeType')) sent.push(JSON.parse(payload).mimeType);
      });
    });
    await panel.getByTestId('live-status').and(page.locator('[data-state="offline"]')).waitFor();
    // Rotating shows the new key once, with the ffmpeg command; going live needs no key.
    await panel.getByTestId('stream-key-rotate').click();
    const newKey = await panel.getByTestId('stream-key').innerText();
    assert.notEqual(newKey, concerts.mic.key);
    // The command on screen shows the key as bullets (not percent-encoded); Copy gives the real key.
    const command = panel.getByTestId('ffmpeg-example');
    const shown = await command.innerText();
    assert.ok(shown.includes(`icecast://source:${'\u2022'.repeat(newKey.length - 4)}${newKey.slice(-4)}@`), shown);
    assert.ok(!shown.includes(newKey) && !shown.includes('%E2%80%A2'), shown);
    await staff.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await command.locator('xpath=..').getByRole('button', { name: 'Copy' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(copied.includes(`icecast://source:${encodeURIComponent(newKey)}@`), copied);
    await panel.getByTestId('go-live-start').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="live"]')).waitFor({ timeout: 15_000 });
    await waitUntil(async () => (await liveStatus(concerts.mic)).publisherConnected, { message: 'the browser publisher' });
    const first = (await liveStatus(concerts.mic)).recordedSeconds;
    await waitUntil(async () => (await liveStatus(concerts.mic)).recordedSeconds >= first + 2, { timeout: 15_000, message: 'the recording to grow' });
    await panel.getByTestId('live-status').and(page.locator('[data-state="connected"]')).waitFor();
    await screenshot(page, 'dark-go-live');
    await panel.getByTestId('go-live-stop').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="stopped"]')).waitFor();
    await waitUntil(async () => !(await liveStatus(concerts.mic)).publisherConnected, { message: 'the publisher to leave' });
    assert.deepEqual(sent, ['audio/webm;codecs=opus']);
    const withoutLossless = panel.getByTestId('go-live-without-lossless');
    assert.equal(await withoutLossless.count(), 0, 'no notice for Opus');

    // Lossless (remembered on this device): the microphone as PCM, and the show goes on, in
    // the AAC renditions it began with: the panel says so.
    await panel.getByTestId('go-live-lossless').check();
    await panel.getByTestId('go-live-start').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="live"]')).waitFor({ timeout: 15_000 });
    assert.match(await withoutLossless.innerText(), /^This show began without Lossless, so it carries on as it began/);
    await screenshot(page, 'dark-go-live-without-lossless');
    const before = (await liveStatus(concerts.mic)).recordedSeconds;
    await waitUntil(async () => (await liveStatus(concerts.mic)).recordedSeconds >= before + 2, { timeout: 15_000, message: 'the recording to grow in lossless' });
    assert.deepEqual(sent, ['audio/webm;codecs=opus', 'audio/webm;codecs=pcm']);
    assert.equal(await page.evaluate(() => localStorage.getItem('encore.goLive.lossless')), 'true');
    await panel.getByTestId('go-live-stop').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="stopped"]')).waitFor();
    await waitUntil(async () => !(await liveStatus(concerts.mic)).publisherConnected, { message: 'the publisher to leave' });

    // A show started in lossless has the Lossless quality: the switch is still on, and the
    // server makes FLAC of the PCM beside the AAC renditions.
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('manage-row').filter({ hasText: LOSSLESS_MIC_TITLE }).getByRole('button', { name: 'Sales and stream key' }).click();
    await panel.getByTestId('live-status').and(page.locator('[data-state="offline"]')).waitFor();
    assert.equal(await panel.getByTestId('go-live-lossless').isChecked(), true);
    await panel.getByTestId('go-live-start').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="live"]')).waitFor({ timeout: 15_000 });
    await waitUntil(async () => (await liveStatus(concerts.losslessMic)).recordedSeconds >= 2, { timeout: 15_000, message: 'the lossless show to record' });
    const session = await fan('POST', `/api/v1/stream/${concerts.losslessMic.id}/session`);
    assert.equal(session.status, 200, JSON.stringify(session.json));
    const master = await (await fetch(`${suite.server.url}${session.json.payload.masterUrl}`)).text();
    assert.match(master, /CODECS="fLaC"[^\n]*\nlossless\/index\.m3u8/, master);
    assert.equal(await withoutLossless.count(), 0, 'a show begun in lossless takes it');
    await panel.getByTestId('go-live-stop').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="stopped"]')).waitFor();
    assert.deepEqual(sent, ['audio/webm;codecs=opus', 'audio/webm;codecs=pcm', 'audio/webm;codecs=pcm']);
    await finish(staff);
  });

  test('live socket: a ticket holder is told "live now" and the card turns live without a reload; the artist sees them listen', async () => {
    const title = 'Doors at Nine';
    const concert = await createConcert(title, { buy: true, startsAt: new Date(Date.now() + 10 * 60_000) });
    const holder = await browser({ width: 1280, height: 900, args: PLAYBACK_ARGS });
    await signInAs(holder.page, ACCOUNTS.fan);
    await holder.page.goto(`${suite.server.url}/my-events`);
    const card = ticket(holder.page, title);
    await card.getByTestId('starts-at').waitFor();
    // Inside the doors: the phase, no countdown beside a player.
    await card.getByTestId('state-badge').and(holder.page.locator('[data-phase="doors"]')).waitFor();
    await holder.page.getByTestId('live-indicator').and(holder.page.locator('[data-phase="live"]')).waitFor();
    await holder.page.evaluate(() => {
      window.encoreSamePage = true;
    });

    const staff = await browser({ width: 1280, height: 900, args: MIC_ARGS });
    const { page } = staff;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('manage-row').filter({ hasText: title }).getByRole('button', { name: 'Sales and stream key' }).click();
    const panel = page.locator('[data-testid="live-panel"][data-feed="socket"]');
    await panel.getByTestId('live-status').and(page.locator('[data-state="offline"]')).waitFor();
    await panel.getByTestId('go-live-start').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="live"]')).waitFor({ timeout: 15_000 });
    // Pushed on the concert's channel: the panel does not poll while the socket follows it.
    await panel.getByTestId('live-status').and(page.locator('[data-state="connected"]')).waitFor();

    // The holder: a toast, and the card live, on the same page. (The doors reminder, "starts
    // in 15 min", may be on screen too: a housekeeping tick can send it meanwhile.)
    await holder.page.getByTestId('live-toast').filter({ hasText: `${title} is live` }).waitFor({ timeout: 15_000 });
    await card.getByText('Live now: tune in!').waitFor();
    assert.equal(await holder.page.evaluate(() => window.encoreSamePage), true, 'the page was not reloaded');
    await screenshot(holder.page, 'dark-live-now-toast');

    // They listen: the artist's panel counts them.
    await card.getByTestId('player-listen').click();
    await panel.locator('[data-testid="live-listeners"][data-count="1"]').waitFor({ timeout: 20_000 });
    await panel.getByTestId('go-live-stop').click();
    await panel.getByTestId('go-live').and(page.locator('[data-state="stopped"]')).waitFor();
    await waitUntil(async () => !(await liveStatus(concert)).publisherConnected, { message: 'the publisher to leave' });
    await finish(staff);
    await finish(holder, [STREAM_ANSWERS]);
  });
});
