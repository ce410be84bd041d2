// End-to-end: the live room as a phone shows it (390×844 and 360×800), in English and in
// Persian (right to left). The fan's stage with the room open, messages (a long link, a word
// that never breaks, Persian beside English, a pinned one) and applause; the artist's live
// panel with the room, a report, the moderation log and "Encoder away" (the encoder killed
// mid-show). Each view is screenshotted into e2e/screenshots/ (look at them) and checked:
// nothing wider than the screen, the key parts shown, thumb-sized targets, Persian digits
// and no English left in Persian. The eight screens share one server, one show (its encoder
// killed once) and one chromium: each screen is a fresh context, and each reader signs in
// through the login page once, the later screens starting with what that sign-in left.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { apiSession, cast, e2eSuite, PASSWORD, person, screenshot, unnamedControls, waitUntil } from './harness.mjs';
import { liveRoomShow, onStage, room, roomLive, STREAM_ANSWERS } from './room-helpers.mjs';

const ACCOUNTS = cast({
  admin: 'ada',
  artist: 'aria',
  fan: 'ann',
  // A long name, beside his messages and reports on a small phone.
  ben: person('benedict@example.com', 'Benedict', 'Cumberbatch-Longname'),
  persian: 'sara',
  troll: 'fiona',
});

const suite = e2eSuite(ACCOUNTS);
const TITLE = 'Phones in the Air';
const show = liveRoomShow(suite, {
  title: TITLE,
  admin: ACCOUNTS.admin,
  artist: ACCOUNTS.artist,
  fans: [ACCOUNTS.fan, ACCOUNTS.ben, ACCOUNTS.persian, ACCOUNTS.troll],
  frequency: 523,
});

const SIZES = [
  [390, 844],
  [360, 800],
];
const LANGUAGES = ['gb', 'ir'];
/** Who reads the stage in each language. */
const READER = { gb: ACCOUNTS.fan, ir: ACCOUNTS.persian };
/** Targets a thumb can hit: 44 px, less a rounding. */
const THUMB = 43.5;

let artist;
const chat = (path = '') => `/api/v1/events/${show.concert.id}/chat${path}`;

async function say(session, text) {
  const posted = await session('POST', chat(), { text });
  assert.equal(posted.status, 201, JSON.stringify(posted.json));
  return posted.json.payload;
}

before(async () => {
  await show.ready;
  artist = await apiSession(suite.server.url, ACCOUNTS.artist.email, PASSWORD);
  const ben = show.session(ACCOUNTS.ben);
  await say(ben, 'Hello from Lisbon! The set list is here: https://example.com/setlists/2030/phones-in-the-air?utm_source=encore&utm_medium=chat');
  await say(ben, 'Soooooooooooooooooooooooooooooooooooooooooooooooooooo good');
  await say(show.session(ACCOUNTS.persian), 'سلام از تهران! Encore عالی است 🎶 ۱۲۳');
  const troll = await say(show.session(ACCOUNTS.troll), 'BUY CHEAP TICKETS HERE');
  const thanks = await say(artist, 'Thank you all for being here tonight. Next song is for you!');
  // The moderation log's lines: a pin, a deletion, a timeout and its lift, slow mode on and off.
  for (const [method, path, body] of [
    ['PATCH', '/room', { pinnedMessageId: thanks.id }],
    ['DELETE', `/messages/${troll.id}`],
    ['POST', '/restrictions', { accountId: troll.accountId, kind: 'timeout_5m' }],
    ['DELETE', `/restrictions/${troll.accountId}`],
    ['PATCH', '/room', { slowModeSeconds: 30 }],
    ['PATCH', '/room', { slowModeSeconds: 0 }],
    ['POST', '/restrictions', { accountId: troll.accountId, kind: 'timeout_1h' }],
  ]) {
    const answer = await artist(method, chat(path), body);
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  }
});

/** What stands wider than the screen, or is cut off: the page's scroll width, and the
 * elements under `selector` whose box leaves the screen or, sideways, the box that clips
 * them (a label cut by its card). */
function overflow(page, selector) {
  return page.evaluate((within) => {
    const width = window.innerWidth;
    const out = [];
    const clipper = (element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return up;
      }
      return null;
    };
    for (const element of document.querySelectorAll(`${within}, ${within} *`)) {
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      // A box that clips its own content, narrower than it: a label cut short.
      if (getComputedStyle(element).overflowX !== 'visible' && element.scrollWidth > element.clientWidth + 1) {
        out.push(`${element.tagName.toLowerCase()}[${element.getAttribute('data-testid') ?? String(element.className).split(' ')[0]}] "${element.textContent.slice(0, 30)}" cut: ${element.scrollWidth} px in ${element.clientWidth}`);
      }
      const clip = clipper(element);
      const bounds = clip ? clip.getBoundingClientRect() : { left: 0, right: width };
      if (box.left < bounds.left - 1 || box.right > bounds.right + 1 || box.left < -1 || box.right > width + 1) {
        const name = element.getAttribute('data-testid') ?? String(element.className).split(' ')[0];
        out.push(`${element.tagName.toLowerCase()}[${name}] "${element.textContent.slice(0, 30)}" ${Math.round(box.left)}..${Math.round(box.right)} in ${Math.round(bounds.left)}..${Math.round(bounds.right)}`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, out: out.slice(0, 10) };
  }, selector);
}

/** The top bar's logo and its actions side by side, never over each other. */
async function assertTopBar(page, where) {
  const logo = await page.getByTestId('logo').boundingBox();
  const actions = await page.getByTestId('top-bar-actions').boundingBox();
  const [first, second] = logo.x < actions.x ? [logo, actions] : [actions, logo];
  assert.ok(first.x + first.width <= second.x + 0.5, `${where}: the logo ${JSON.stringify(logo)} runs into the actions ${JSON.stringify(actions)}`);
}

/** Clears the pointer off the page (a tooltip left by the last click). */
async function pointerAway(page) {
  await page.mouse.move(page.viewportSize().width / 2, 2);
  await page.waitForTimeout(300); // the tooltip's fade
}

async function assertFits(page, selector, where) {
  const found = await overflow(page, selector);
  assert.ok(found.scrollWidth <= found.innerWidth, `${where}: the page is ${found.scrollWidth} px wide on a ${found.innerWidth} px screen`);
  assert.deepEqual(found.out, [], `${where}: elements leave the screen`);
}

/** Each of `locators` is shown, within the screen's width, and (`thumb`) at least 44 px. */
async function assertShown(page, locators, where, { thumb = false } = {}) {
  const width = page.viewportSize().width;
  for (const [name, locator] of Object.entries(locators)) {
    await locator.scrollIntoViewIfNeeded();
    assert.ok(await locator.isVisible(), `${where}: ${name} is shown`);
    const box = await locator.boundingBox();
    assert.ok(box.x >= -1 && box.x + box.width <= width + 1, `${where}: ${name} within the screen: ${JSON.stringify(box)}`);
    if (thumb) assert.ok(box.width >= THUMB && box.height >= THUMB, `${where}: ${name} is ${box.width.toFixed(1)}×${box.height.toFixed(1)} px`);
  }
}

/** In Persian: the text of `locator`, less what people wrote (messages, names, quotes), has
 * Persian digits only and no English word left. */
async function assertPersian(locator, where) {
  const text = await locator.evaluate((element) => {
    const copy = element.cloneNode(true);
    const theirs = '[data-testid="room-message-text"], [data-testid="room-message-author"], [data-testid="room-log-actor"], [data-testid="room-log-quote"], [data-testid="room-log-what"] bdi, code, [dir="ltr"], input, [data-people]';
    for (const written of copy.querySelectorAll(theirs)) written.remove();
    return copy.textContent;
  });
  // Names of people inside the log's sentences are isolates (FSI … PDI).
  const bare = text.replace(/\u2068[^\u2069]*\u2069/g, '');
  assert.doesNotMatch(bare, /[0-9]/, `${where}: Latin digits in Persian: ${bare}`);
  assert.doesNotMatch(bare, /[A-Za-z]{3,}/, `${where}: English left in Persian: ${bare}`);
}

const reactionsOf = (scope) => ({
  applause: scope.getByTestId('room-react-applause'),
  heart: scope.getByTestId('room-react-heart'),
  fire: scope.getByTestId('room-react-fire'),
});

describe('The live room on a phone, in English and in Persian', () => {
  for (const [width, height] of SIZES) {
    for (const language of LANGUAGES) {
      test(`the fan's stage, ${width}×${height}, ${language}: the room open with messages and applause`, async () => {
        const where = `stage ${language} ${width}`;
        const b = await onStage(suite, show, READER[language], { language, width, height, follow: false, reuse: true });
        const { page } = b;
        const toggle = page.getByTestId('room-toggle');
        await toggle.click();
        await roomLive(page);
        await page.waitForTimeout(400); // the fold's opening
        const scope = room(page);
        await scope.getByTestId('room-message').filter({ hasText: 'Lisbon' }).waitFor();
        await scope.getByTestId('room-pinned').waitFor();
        for (const kind of ['applause', 'applause', 'applause', 'heart', 'fire']) await scope.getByTestId(`room-react-${kind}`).click();
        await waitUntil(async () => Number(await scope.getByTestId('room-meter').getAttribute('data-total')) >= 5, { timeout: 15_000, message: 'the applause on the meter' });

        await pointerAway(page);
        await toggle.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await screenshot(page, `room-stage-${language}-${width}`);
        // The browser brings the composer into view (as it does for a focused input): above
        // the player bar, not under it.
        const input = scope.getByTestId('room-input');
        await input.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        await screenshot(page, `room-stage-${language}-${width}-composer`);
        const inputBox = await input.boundingBox();
        const barBox = await page.getByTestId('mini-player').boundingBox();
        assert.ok(inputBox.y + inputBox.height <= barBox.y + 0.5, `${where}: the composer ${JSON.stringify(inputBox)} under the player bar ${JSON.stringify(barBox)}`);
        await assertFits(page, '[data-testid="stage"]', where);
        assert.deepEqual(await unnamedControls(page, '[data-testid="stage"]'), [], `${where}: controls without a name`);
        await assertTopBar(page, where);
        await assertShown(page, { list: scope.getByTestId('room-list'), pinned: scope.getByTestId('room-pinned'), meter: scope.getByTestId('room-meter'), input: scope.getByTestId('room-input') }, where);
        await assertShown(page, { toggle, send: scope.getByTestId('room-send'), ...reactionsOf(scope), menu: scope.getByTestId('room-message-menu').first() }, where, { thumb: true });
        if (language === 'ir') await assertPersian(scope, where);

        // A message's menu: its items thumb-sized, inside the screen.
        await scope.getByTestId('room-message').filter({ hasText: 'Lisbon' }).getByTestId('room-message-menu').click();
        const report = page.getByTestId('room-action-report');
        await report.waitFor();
        await page.waitForTimeout(300); // the menu's transition
        await screenshot(page, `room-stage-${language}-${width}-menu`);
        await assertShown(page, { report }, where, { thumb: true });
        await page.keyboard.press('Escape');
        await suite.finish(b, [STREAM_ANSWERS]);
      });
    }
  }

  test('the encoder drops mid-show: the artist\'s panel will say "Encoder away"', async () => {
    show.push.kill('SIGKILL');
    await show.push.exited;
    await waitUntil(async () => (await show.admin('GET', `/api/v1/events/${show.concert.id}/live`)).json.payload?.awaySeconds != null, { timeout: 20_000, message: 'the encoder away' });
  });

  let reported = 0;
  for (const [width, height] of SIZES) {
    for (const language of LANGUAGES) {
      test(`the artist's live panel, ${width}×${height}, ${language}: "Encoder away", the room, a report and the moderation log`, async () => {
        const where = `panel ${language} ${width}`;
        const b = await suite.browserAs(ACCOUNTS.artist, {
          width,
          height,
          reuse: true,
          prepare: (page) =>
            page.addInitScript((code) => {
              localStorage.setItem('language', code);
            }, language),
        });
        const { page } = b;
        await page.goto(`${suite.server.url}/manage-events`);
        await page.getByTestId('manage-row').filter({ hasText: TITLE }).getByTestId('manage-sales').click();
        const panel = page.getByTestId('live-panel');
        const scope = panel.getByTestId('room');
        await scope.and(page.locator('[data-status="ready"][data-feed="socket"][data-moderator="true"]')).waitFor({ timeout: 15_000 });
        const away = panel.getByTestId('live-away');
        await away.waitFor({ timeout: 15_000 });
        await page.waitForTimeout(400); // the drawer's slide-in

        // A fresh message of Ben's, reported by Ann while the panel is open.
        reported += 1;
        const rude = await say(show.session(ACCOUNTS.ben), `Rude message number ${reported}, with a very long tail that has to wrap on a small phone screen`);
        assert.equal((await show.session(ACCOUNTS.fan)('POST', chat(`/messages/${rude.id}/report`))).status < 300, true);
        const report = panel.getByTestId('room-report').filter({ hasText: `number ${reported}` });
        await report.waitFor({ timeout: 10_000 });

        const log = panel.getByTestId('room-log');
        await log.getByTestId('room-log-toggle').click();
        await log.getByTestId('room-log-entry').first().waitFor();
        await page.waitForTimeout(300);

        await pointerAway(page);
        await away.scrollIntoViewIfNeeded();
        await screenshot(page, `room-panel-${language}-${width}-away`);
        await scope.getByTestId('room-list').scrollIntoViewIfNeeded();
        await screenshot(page, `room-panel-${language}-${width}-room`);
        await scope.getByTestId('room-moderation').scrollIntoViewIfNeeded();
        await screenshot(page, `room-panel-${language}-${width}-moderation`);
        await report.scrollIntoViewIfNeeded();
        await screenshot(page, `room-panel-${language}-${width}-reports`);
        await log.getByTestId('room-log-entry').last().scrollIntoViewIfNeeded();
        await screenshot(page, `room-panel-${language}-${width}-log`);

        await assertFits(page, '[data-testid="live-panel"]', where);
        assert.deepEqual(await unnamedControls(page, '[data-testid="live-panel"]'), [], `${where}: controls without a name`);
        const badge = panel.getByTestId('live-status');
        assert.equal(await badge.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), true, `${where}: the state badge is cut`);
        await assertShown(page, { away, list: scope.getByTestId('room-list'), input: scope.getByTestId('room-input'), meter: scope.getByTestId('room-meter') }, where);
        await assertShown(
          page,
          {
            send: scope.getByTestId('room-send'),
            ...reactionsOf(scope),
            menu: scope.getByTestId('room-message-menu').first(),
            slowMode: scope.getByTestId('room-slow-select'),
            closeChat: scope.getByTestId('room-close-toggle'),
            unpin: scope.getByTestId('room-unpin'),
            reportDelete: report.getByTestId('room-report-delete'),
            reportTimeout: report.getByTestId('room-report-timeout'),
            reportDismiss: report.getByTestId('room-report-dismiss'),
            logToggle: log.getByTestId('room-log-toggle'),
          },
          where,
          { thumb: true },
        );
        assert.ok((await log.getByTestId('room-log-entry').count()) >= 7, 'the log lists the artist\'s actions');
        if (language === 'ir') {
          await assertPersian(away, where);
          await assertPersian(scope, where);
          await assertPersian(panel.getByTestId('room-reports'), where);
          await assertPersian(log, where);
        }
        await suite.finish(b);
      });
    }
  }
});
