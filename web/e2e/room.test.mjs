// End-to-end (issue 29, the live room): two fans with tickets on the stage of a live show
// that the real `encore push` sends. Fan A posts and fan B reads it, a link opened safely;
// A's applause rises on both meters; A reports B's message and the artist (a member of the
// concert's project, on the live panel) sees the report and deletes it: it vanishes for
// both. In Persian the room reads right to left; on a 390 px phone it folds under the
// player and its input never hides under the player bar.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiSession, createConcert, e2eSuite, PASSWORD, payCart, screenshot, startPush, waitUntil, writeSine } from './harness.mjs';

const ACCOUNTS = {
  admin: { email: 'room-admin@example.com', password: PASSWORD, role: 'admin', firstName: 'Rita', lastName: 'Runner' },
  artist: { email: 'room-artist@example.com', password: PASSWORD, role: 'user', firstName: 'Aria', lastName: 'Voss' },
  fanA: { email: 'room-ann@example.com', password: PASSWORD, role: 'user', firstName: 'Ann', lastName: 'Bell' },
  fanB: { email: 'room-ben@example.com', password: PASSWORD, role: 'user', firstName: 'Ben', lastName: 'Cole' },
  persian: { email: 'room-sara@example.com', password: PASSWORD, role: 'user', firstName: 'سارا', lastName: 'ملکی' },
};

const suite = e2eSuite(Object.values(ACCOUNTS));
const { browser, finish, signInAs } = suite;

const TITLE = 'Chorus of the Room';
const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
// A second device taking a ticket over (the phone after the desktop) makes the first one's
// stream URLs answer 403; the playlist answers 404 until the first segment.
const STREAM_ANSWERS = /status of 40[34] .*\(http:\/\/[^)]*\/stream\//;

let workDir;
let push;
let concert;

before(async () => {
  await suite.ready;
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  workDir = mkdtempSync(join(tmpdir(), 'encore-room-e2e-'));
  const audioFile = join(workDir, 'sine.aac');
  writeSine(audioFile, 330);
  concert = await createConcert(admin, TITLE);
  // The artist: a member of the concert's project (the room's "Artist", a moderator).
  const event = await admin('GET', `/api/v1/events/${concert.id}`);
  const member = await admin('POST', `/api/v1/projects/${event.json.payload.projectId}/members`, { login: ACCOUNTS.artist.email });
  assert.equal(member.status, 200, JSON.stringify(member.json));
  for (const account of [ACCOUNTS.fanA, ACCOUNTS.fanB, ACCOUNTS.persian]) {
    const fan = await apiSession(suite.server.url, account.email, PASSWORD);
    assert.equal((await fan('POST', `/api/v1/cart/${concert.id}`)).status, 200);
    const paid = await payCart(fan, `${account.firstName} ${account.lastName}`);
    assert.equal(paid.json.payload?.status, 'fulfilled', JSON.stringify(paid.json));
  }
  push = startPush(suite.server.url, audioFile, concert);
});

after(async () => {
  push?.kill('SIGKILL');
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Signs `account` in (with `language`), opens the stage and starts listening; answers the
 * browser once the room follows the socket. */
async function onStage(account, { language, width = 1280, height = 900 } = {}) {
  const b = await browser({ width, height, args: PLAYBACK_ARGS });
  const { page } = b;
  if (language) {
    await page.addInitScript((code) => {
      localStorage.setItem('language', code);
    }, language);
  }
  await signInAs(page, account);
  await page.goto(`${suite.server.url}/stage/${concert.id}`);
  const stage = page.getByTestId('stage');
  await stage.getByTestId('player-listen').click();
  await stage.and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
  // The player's clock moves: the room follows its position.
  await waitUntil(() => page.getByTestId('player-audio').evaluate((audio) => audio.currentTime > 1), { timeout: 20_000, message: 'the show playing' });
  return b;
}

const room = (page) => page.getByTestId('room');
const messages = (page, text) => room(page).getByTestId('room-message').filter({ hasText: text });

async function roomLive(page) {
  await room(page).and(page.locator('[data-status="ready"][data-feed="socket"]')).waitFor({ timeout: 15_000 });
}

/** Writes and sends `text`; the input empties once the server took it. */
async function post(page, text) {
  const input = room(page).getByTestId('room-input');
  await input.fill(text);
  await room(page).getByTestId('room-send').click();
  await waitUntil(async () => (await input.inputValue()) === '', { timeout: 10_000, message: `"${text}" sent` });
}

const meterTotal = async (page) => Number(await room(page).getByTestId('room-meter').getAttribute('data-total'));

describe('The live room (issue 29)', () => {
  test('fan A posts and fan B reads it; A reports B, and the artist deletes it from the live panel: gone for both; applause rises on both meters', async () => {
    const a = await onStage(ACCOUNTS.fanA);
    const b = await onStage(ACCOUNTS.fanB);
    await roomLive(a.page);
    await roomLive(b.page);

    // A's message, with a link: B reads it once B's player reaches the moment A wrote it.
    const hello = 'Hello from the front row! Set list: https://example.com/setlist';
    await post(a.page, hello);
    await messages(a.page, 'Hello from the front row').waitFor();
    const atB = messages(b.page, 'Hello from the front row');
    await atB.waitFor({ timeout: 20_000 });
    assert.equal(await atB.getByTestId('room-message-author').textContent(), 'Ann B.');
    assert.equal(await atB.getByTestId('room-message-text').textContent(), hello);
    assert.equal(await atB.getByTestId('room-message-text').getAttribute('dir'), 'auto');
    const link = atB.getByTestId('room-message-link');
    assert.equal(await link.getAttribute('href'), 'https://example.com/setlist');
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await link.getAttribute('rel'), 'noopener nofollow ugc');
    assert.equal(await atB.getAttribute('data-own'), 'false');
    assert.equal(await messages(a.page, 'Hello from the front row').getAttribute('data-own'), 'true');

    // Applause: three clicks from A, sent together, rise on both meters.
    const before = { a: await meterTotal(a.page), b: await meterTotal(b.page) };
    for (let i = 0; i < 3; i++) await room(a.page).getByTestId('room-react-applause').click();
    for (const [name, page] of [['A', a.page], ['B', b.page]]) {
      await waitUntil(async () => (await meterTotal(page)) >= before[name.toLowerCase()] + 3, { timeout: 15_000, interval: 100, message: `the applause on ${name}'s meter` });
      assert.ok(Number(await room(page).getByTestId('room-meter').getAttribute('data-applause')) >= 3);
    }
    await screenshot(a.page, 'dark-room-stage');

    // The artist's live panel holds the same room, with its tools.
    const artist = await browser({ width: 1280, height: 1000 });
    await signInAs(artist.page, ACCOUNTS.artist);
    await artist.page.goto(`${suite.server.url}/manage-events`);
    await artist.page.getByTestId('manage-row').filter({ hasText: TITLE }).getByRole('button', { name: 'Sales and stream key' }).click();
    const panel = artist.page.getByTestId('live-panel');
    const artistRoom = panel.getByTestId('room');
    await artistRoom.and(artist.page.locator('[data-status="ready"][data-feed="socket"][data-moderator="true"]')).waitFor({ timeout: 15_000 });
    await artistRoom.getByTestId('room-message').filter({ hasText: 'Hello from the front row' }).waitFor();

    // B writes something A reports; the report reaches the artist's panel live.
    const rude = 'This is a rude message to delete';
    await post(b.page, rude);
    const rudeAtA = messages(a.page, rude);
    await rudeAtA.waitFor({ timeout: 20_000 });
    await rudeAtA.getByTestId('room-message-menu').click();
    await a.page.getByTestId('room-action-report').click();
    const report = panel.getByTestId('room-reports').getByTestId('room-report').filter({ hasText: rude });
    await report.waitFor({ timeout: 10_000 });
    assert.match(await report.textContent(), /Reported by Ann B\./);

    // The artist deletes it: gone for both fans, and the report with it.
    await report.getByTestId('room-report-delete').click();
    await waitUntil(async () => (await messages(a.page, rude).count()) === 0 && (await messages(b.page, rude).count()) === 0, { timeout: 10_000, message: 'the deleted message gone for both' });
    await waitUntil(async () => (await panel.getByTestId('room-report').count()) === 0, { message: 'the report gone' });
    assert.equal(await artistRoom.getByTestId('room-message').filter({ hasText: rude }).count(), 0);

    // The artist writes: the fans see the "Artist" badge (Mantine uppercases it by CSS).
    await post(artist.page, 'Thank you for being here tonight');
    const thanks = messages(b.page, 'Thank you for being here tonight');
    await thanks.waitFor({ timeout: 20_000 });
    assert.equal(await thanks.getByTestId('room-message-badge').textContent(), 'Artist');
    assert.equal(await thanks.getByTestId('room-message-author').textContent(), 'Aria V.');
    // Own messages: the menu offers Delete; the artist may delete anyone's.
    await screenshot(artist.page, 'dark-room-live-panel');

    await finish(artist);
    await finish(a, [STREAM_ANSWERS]);
    await finish(b, [STREAM_ANSWERS]);
  });

  test('in Persian the room reads right to left, and a mixed Persian and English message keeps its own direction', async () => {
    const p = await onStage(ACCOUNTS.persian, { language: 'ir' });
    const { page } = p;
    await roomLive(page);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await room(page).evaluate((element) => getComputedStyle(element).direction), 'rtl');
    assert.match(await room(page).textContent(), /گفت‌وگوی زنده/);
    const mixed = 'سلام Encore! چه اجرای خوبی';
    await post(page, mixed);
    const line = messages(page, 'چه اجرای خوبی');
    await line.waitFor();
    assert.equal(await line.getByTestId('room-message-author').textContent(), 'سارا م.');
    assert.equal(await line.getByTestId('room-message-text').getAttribute('dir'), 'auto');
    // The text isolate resolves to right to left (its first strong letter is Persian).
    assert.equal(await line.getByTestId('room-message-text').evaluate((element) => element.matches(':dir(rtl)')), true);
    // The title stands at the right of the room, as the page reads.
    const card = await room(page).boundingBox();
    const heading = await room(page).getByText('گفت‌وگوی زنده').boundingBox();
    assert.ok(card.x + card.width - (heading.x + heading.width) < card.width / 2, `the title on the right: ${JSON.stringify({ card, heading })}`);
    await screenshot(page, 'dark-rtl-room');
    await finish(p, [STREAM_ANSWERS]);
  });

  test('on a 390 px phone the room folds under the player; opened, its input and Send sit clear of the player bar, thumb-sized', async () => {
    const phone = await onStage(ACCOUNTS.fanA, { width: 390, height: 844 });
    const { page } = phone;
    const toggle = page.getByTestId('room-toggle');
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await roomLive(page);
    const input = room(page).getByTestId('room-input');
    await input.waitFor();
    await input.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400); // the fold's opening
    await post(page, 'Listening on my phone');
    await messages(page, 'Listening on my phone').waitFor();
    await input.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/room-phone.png' });

    const bar = page.getByTestId('mini-player');
    const overlap = (a, b) => Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0;
    for (const where of ['in view', 'at the bottom of the page']) {
      if (where !== 'in view') await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const barBox = await bar.boundingBox();
      for (const testId of ['room-input', 'room-send', 'room-react-applause']) {
        const box = await room(page).getByTestId(testId).boundingBox();
        assert.ok(box, `${testId} is shown`);
        assert.ok(!overlap(box, barBox), `${testId} ${JSON.stringify(box)} overlaps the player bar ${JSON.stringify(barBox)} (${where})`);
        assert.ok(box.x >= 0 && box.x + box.width <= 390, `${testId} within the screen: ${JSON.stringify(box)}`);
      }
    }
    for (const testId of ['room-send', 'room-react-applause', 'room-react-heart', 'room-react-fire']) {
      const box = await room(page).getByTestId(testId).boundingBox();
      assert.ok(box.width >= 43.5 && box.height >= 43.5, `${testId} is ${box.width}×${box.height}`);
    }
    const toggleBox = await toggle.boundingBox();
    assert.ok(toggleBox.height >= 43.5, `the toggle is ${toggleBox.height} px high`);
    await finish(phone, [STREAM_ANSWERS]);
  });
});
