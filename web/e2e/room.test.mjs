// End-to-end (issue 29, the live room): two fans with tickets on the stage of a live show
// that the real `encore push` sends. Fan A posts and fan B reads it, a link opened safely;
// A's applause rises on both meters; A reports B's message and the artist (a member of the
// concert's project, on the live panel) sees the report and deletes it: it vanishes for
// both. In Persian the room reads right to left; on a 390 px phone it folds under the
// player and its input never hides under the player bar.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { literally, screenshot, waitUntil } from './harness.mjs';
import { author, fullRoom, messages, openLivePanel, post, room, roomLive, STREAM_ANSWERS } from './room-helpers.mjs';

const TITLE = 'Chorus of the Room';
const { accounts: ACCOUNTS, suite, show, onStage } = fullRoom({ title: TITLE, frequency: 330 });
const { browser, finish, signInAs } = suite;

/** The report of fan A, as the artist's live panel says it. */
const reportedBy = new RegExp(`Reported by \u2068?${literally(author(ACCOUNTS.fanA))}\u2069?`);
const meterTotal = async (page) => Number(await room(page).getByTestId('room-meter').getAttribute('data-total'));

describe('The live room (issue 29)', () => {
  test('fan A posts and fan B reads it; A reports B, and the artist deletes it from the live panel: gone for both; applause rises on both meters', async () => {
    const a = await onStage(ACCOUNTS.fanA);
    const b = await onStage(ACCOUNTS.fanB);

    // A's message, with a link: B reads it once B's player reaches the moment A wrote it.
    const hello = 'Hello from the front row! Set list: https://example.com/setlist';
    await post(a.page, hello);
    await messages(a.page, 'Hello from the front row').waitFor();
    const atB = messages(b.page, 'Hello from the front row');
    await atB.waitFor({ timeout: 20_000 });
    assert.equal(await atB.getByTestId('room-message-author').textContent(), author(ACCOUNTS.fanA));
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
    const panel = await openLivePanel(suite, artist.page, TITLE);
    const artistRoom = panel.getByTestId('room');
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
    assert.match(await report.textContent(), reportedBy);

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
    assert.equal(await thanks.getByTestId('room-message-author').textContent(), author(ACCOUNTS.artist));
    // Own messages: the menu offers Delete; the artist may delete anyone's.
    await screenshot(artist.page, 'dark-room-live-panel');

    await finish(artist);
    await finish(a, [STREAM_ANSWERS]);
    await finish(b, [STREAM_ANSWERS]);
  });

  test('a moderator who opens the panel late sees the reports made before; Dismiss drops one for every moderator, keeps the message and logs it', async () => {
    // Ben writes, Ann reports it: no panel is open yet.
    const chat = `/api/v1/events/${show.concert.id}/chat`;
    const written = await show.session(ACCOUNTS.fanB)('POST', chat, { text: 'Reported before anyone looked' });
    assert.equal(written.status, 201, JSON.stringify(written.json));
    const message = written.json.payload;
    assert.equal((await show.session(ACCOUNTS.fanA)('POST', `${chat}/messages/${message.id}/report`)).status, 200);

    // The artist and the staff open their panels afterwards: the report is there.
    const artist = await browser({ width: 1280, height: 1000 });
    await signInAs(artist.page, ACCOUNTS.artist);
    const panel = await openLivePanel(suite, artist.page, TITLE);
    const staff = await browser({ width: 1280, height: 1000 });
    await signInAs(staff.page, ACCOUNTS.admin);
    const staffPanel = await openLivePanel(suite, staff.page, TITLE);
    const report = (where) => where.getByTestId('room-reports').getByTestId('room-report').filter({ hasText: 'Reported before anyone looked' });
    await report(panel).waitFor({ timeout: 10_000 });
    await report(staffPanel).waitFor({ timeout: 10_000 });
    assert.match(await report(panel).textContent(), reportedBy);

    // The artist dismisses it: gone from both panels (the staff's told live), the message stays.
    await report(panel).getByTestId('room-report-dismiss').click();
    await waitUntil(async () => (await report(panel).count()) === 0 && (await report(staffPanel).count()) === 0, { timeout: 10_000, message: 'the dismissed report gone from both panels' });
    assert.equal(await panel.getByTestId('room').getByTestId('room-message').filter({ hasText: 'Reported before anyone looked' }).count(), 1, 'the message stays');
    const open = await show.admin('GET', `${chat}/reports`);
    assert.equal(open.status, 200);
    assert.ok(!open.json.payload.some((entry) => entry.message.id === message.id), 'no longer open on the server');

    // The moderation log says who dismissed it, about whose message.
    const log = panel.getByTestId('room-log');
    await log.getByTestId('room-log-toggle').click();
    const line = log.getByTestId('room-log-entry').first();
    await line.and(artist.page.locator('[data-action="dismiss_report"]')).waitFor({ timeout: 10_000 });
    assert.match(await line.textContent(), new RegExp(`${literally(author(ACCOUNTS.artist))} dismissed a report on a message by \u2068?${literally(author(ACCOUNTS.fanB))}\u2069?`));
    assert.match(await line.getByTestId('room-log-quote').textContent(), /Reported before anyone looked/);
    const logged = await show.admin('GET', `${chat}/moderation`);
    assert.deepEqual(await log.getByTestId('room-log-entry').evaluateAll((lines) => lines.map((l) => l.dataset.action)), logged.json.payload.map((entry) => entry.action));
    await screenshot(artist.page, 'dark-room-reports-log');

    await finish(staff);
    await finish(artist);
  });

  test('in Persian the room reads right to left, and a mixed Persian and English message keeps its own direction', async () => {
    const p = await onStage(ACCOUNTS.persian, { language: 'ir' });
    const { page } = p;
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await room(page).evaluate((element) => getComputedStyle(element).direction), 'rtl');
    assert.match(await room(page).textContent(), /گفت‌وگوی زنده/);
    const mixed = 'سلام Encore! چه اجرای خوبی';
    await post(page, mixed);
    const line = messages(page, 'چه اجرای خوبی');
    await line.waitFor();
    assert.equal(await line.getByTestId('room-message-author').textContent(), author(ACCOUNTS.persian));
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
    const phone = await onStage(ACCOUNTS.fanA, { width: 390, height: 844, follow: false });
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
