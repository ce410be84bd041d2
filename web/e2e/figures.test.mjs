// End-to-end: figures in the reader's digits, and the staff's and fans' pages whole on a phone
// (issue 30). At 360×740 and 390×844, in English and in Persian (right to left), an admin's
// dashboard (the period's figures, sales per concert and sign-ups charts), the Live page, a
// concert's sales drawer (its chart) and the notifications, and a fan's dashboard and
// notifications, are measured from their bounding boxes: nothing overlaps, leaves the
// viewport or is cut, every control is at least 44 px. In Persian no text shows a Latin digit:
// the charts' axes and tooltips neither (Persian digits, Solar Hijri days), and what the
// server wrote (a notification's amount, "۹٫۰۰ EUR") is in Persian digits too, where an
// English reader's has "9.00 EUR". The admin's About page shows the version in the reader's
// digits ("۰٫۱٫۰", left to right) and the build as the git revision it is, and their empty
// My orders card sits in the middle; a fan's unread notification is named by its title for a
// screen reader, and an upcoming concert's "Remind me when doors open" is whole and a thumb's
// size at 360 px in Persian. A fan who bought in English and then chose Persian reads the
// confirmation in Persian; their phone number and its code are typed on a Persian keyboard.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, fullName, latinDigits, layoutProblems, PASSWORD, screenshot, sineFile, startPush, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({ adminGb: 'ada', adminIr: 'shirin', fanGb: 'fiona', fanIr: 'sara', switcher: 'ann' });
const suite = e2eSuite(ACCOUNTS);
const { browserAs, finish } = suite;

const LIVE = 'One Night at the Harbour Lights Festival';
const LATER = 'The Autumn Sessions';
/** Upcoming, and nobody's ticket: its page offers "Remind me when doors open". */
const SOON = 'Spring Tide';
const SIZES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];
const MIN_TAP = 44;
/** Whom each language's pages are seen by: their account in that language, so that what the
 * server wrote for them (notifications) is in it too. */
const READERS = { gb: { admin: ACCOUNTS.adminGb, fan: ACCOUNTS.fanGb }, ir: { admin: ACCOUNTS.adminIr, fan: ACCOUNTS.fanIr } };

let sine;
let push;
let soon;

/** `email`'s account now reads `language`. */
async function setLanguage(email, language) {
  const account = await apiSession(suite.server.url, email, PASSWORD);
  const me = (await account('GET', '/api/v1/accounts/userinfo/me')).json.payload[0];
  assert.equal((await account('PUT', `/api/v1/accounts/${me.id}`, { language })).status, 200);
  return account;
}

before(async () => {
  await suite.ready;
  // Each admin makes a concert, and hears of its sales in their own language.
  const adminIr = await setLanguage(ACCOUNTS.adminIr.email, 'ir');
  const adminGb = await apiSession(suite.server.url, ACCOUNTS.adminGb.email, PASSWORD);
  const live = await createConcert(adminIr, LIVE);
  const later = await createConcert(adminGb, LATER, { startsAt: new Date(Date.now() + 5 * 86_400_000) });
  // Each admin plays in their concert's project: its sales are told to them.
  for (const [admin, concert, account] of [[adminIr, live, ACCOUNTS.adminIr], [adminGb, later, ACCOUNTS.adminGb]]) {
    const { projectId } = (await admin('GET', `/api/v1/events/${concert.id}`)).json.payload;
    const member = await admin('POST', `/api/v1/projects/${projectId}/members`, { login: account.email });
    assert.equal(member.status, 200, JSON.stringify(member.json));
  }
  const fanIr = await setLanguage(ACCOUNTS.fanIr.email, 'ir');
  const fanGb = await apiSession(suite.server.url, ACCOUNTS.fanGb.email, PASSWORD);
  await buyTicket(fanIr, live, fullName(ACCOUNTS.fanIr));
  await buyTicket(fanIr, later, fullName(ACCOUNTS.fanIr));
  await buyTicket(fanGb, later, fullName(ACCOUNTS.fanGb));
  // Bought in English: the confirmation is written in English, then its reader turns Persian.
  await buyTicket(await apiSession(suite.server.url, ACCOUNTS.switcher.email, PASSWORD), later, fullName(ACCOUNTS.switcher));
  soon = await createConcert(adminGb, SOON, { startsAt: new Date(Date.now() + 3 * 86_400_000) });
  sine = sineFile(440);
  push = startPush(suite.server.url, sine.path, live);
});

after(async () => {
  push?.kill('SIGKILL');
  sine?.remove();
});

/** The page's pictures and fonts loaded, then a moment for the layout (and a chart's
 * animation) to settle. */
async function settle(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)));
  });
  await page.waitForTimeout(600);
}

/** A chart's axis labels (`x` and `y`), as shown. */
function axisTicks(chart) {
  return chart.evaluate((root) => {
    const ticks = (axis) => [...root.querySelectorAll(`.recharts-${axis}Axis-tick-labels .recharts-cartesian-axis-tick-value`)].map((tick) => tick.textContent.trim()).filter(Boolean);
    return { x: ticks('x'), y: ticks('y') };
  });
}

/** The tooltip a pointer over the middle of `chart` shows. */
async function tooltipOf(page, chart) {
  const box = await chart.locator('.recharts-surface').first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tooltip = chart.locator('.mantine-ChartTooltip-tooltip');
  await tooltip.waitFor();
  const text = await tooltip.innerText();
  await page.mouse.move(0, 0);
  return text;
}

const DAY_IN_ENGLISH = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/;

/** What is wrong with `chart`'s figures in `language`: its counts (and days, with `days`) on
 * the axes and in the tooltip in the reader's digits and calendar. */
async function chartProblems(page, chart, language, { days }) {
  const found = [];
  const { x, y } = await axisTicks(chart);
  const tooltip = await tooltipOf(page, chart);
  if (y.length === 0) found.push('no value axis');
  if (language === 'ir') {
    for (const tick of [...y, ...(days ? x : [])]) if (/[0-9]/.test(tick) || !/[۰-۹]/.test(tick)) found.push(`a tick in Latin digits: "${tick}"`);
    if (/[0-9]/.test(tooltip) || !/[۰-۹]/.test(tooltip)) found.push(`the tooltip in Latin digits: "${tooltip}"`);
  } else {
    for (const tick of y) if (!/^[0-9,]+$/.test(tick)) found.push(`a count tick: "${tick}"`);
    if (days) for (const tick of x) if (!DAY_IN_ENGLISH.test(tick)) found.push(`a day tick: "${tick}"`);
  }
  return found;
}

/** A screen reader's name of an unread notification: "Mark as read: <its title>". */
const MARK_READ = { gb: 'Mark as read: ', ir: 'علامت‌گذاری به‌عنوان خوانده‌شده: ' };

/** How far from the middle `empty-state`'s card and what it holds are, in px: the card in the
 * page (sideways), its icon, words and button in the card (sideways), and its content between
 * its top and bottom edges. Texts are measured by their glyphs, not their (full-width) box. */
function offCentre(card) {
  const box = card.getBoundingClientRect();
  const middle = (rect) => (rect.left + rect.right) / 2;
  const stack = card.firstElementChild;
  const parts = [...stack.children].map((el) => {
    if (!el.matches('button, a, [class*="ThemeIcon"]')) {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect();
    }
    return el.getBoundingClientRect();
  });
  const main = card.parentElement.getBoundingClientRect();
  return {
    card: Math.abs(middle(box) - middle(main)),
    parts: Math.max(...parts.map((rect) => Math.abs(middle(rect) - middle(box)))),
    vertical: Math.abs(parts[0].top - box.top - (box.bottom - parts.at(-1).bottom)),
  };
}

/** Layout (and, in Persian, digits) of the page as it is now, one line a problem. */
async function pageProblems(page, name, language) {
  const found = (await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `${name}: ${problem}`);
  if (language === 'ir') found.push(...(await page.evaluate(latinDigits)).map((text) => `${name}: Latin digits or comma in Persian: "${text}"`));
  return found;
}

describe('Figures in the reader’s digits, and whole on a phone (issue 30)', () => {
  for (const language of ['gb', 'ir']) {
    const prepare = (page) =>
      page.addInitScript((lang) => {
        localStorage.setItem('language', lang);
      }, language);
    const persian = language === 'ir';

    for (const size of SIZES) {
      const tag = `${size.width}-${language}`;

      test(`${size.width}×${size.height}, ${persian ? 'Persian' : 'English'}: the admin's dashboard, charts, Live page, notifications, About and empty My orders`, async () => {
        const b = await browserAs(READERS[language].admin, { ...size, reuse: true, prepare });
        const { page } = b;
        const found = [];

        await page.goto(`${suite.server.url}/dashboard`);
        await page.getByTestId('recent-order').first().waitFor();
        const sales = page.getByTestId('concert-sales-chart');
        const signups = page.getByTestId('signups-chart');
        // Drawn: its axes labelled (a day with no sign-up has a bar of no height).
        await sales.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first().waitFor();
        await signups.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first().waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'dashboard', language)));
        // The figures of the accounts: the three fans, "۳" in Persian.
        assert.equal(await page.getByTestId('stat-users').innerText(), persian ? '۳' : '3');
        await sales.scrollIntoViewIfNeeded();
        found.push(...(await chartProblems(page, sales, language, { days: false })).map((problem) => `sales per concert: ${problem}`));
        await signups.scrollIntoViewIfNeeded();
        found.push(...(await chartProblems(page, signups, language, { days: true })).map((problem) => `sign-ups: ${problem}`));
        await page.screenshot({ path: `e2e/screenshots/figures-${tag}-admin-dashboard.png`, fullPage: true });

        await page.goto(`${suite.server.url}/live`);
        await page.getByTestId('live-concert').first().waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'live', language)));
        await screenshot(page, `figures-${tag}-live`);

        await page.goto(`${suite.server.url}/manage-events`);
        await page.getByTestId('manage-row').filter({ hasText: LATER }).getByTestId('manage-sales').click();
        const perDay = page.getByTestId('sales-chart');
        await perDay.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first().waitFor();
        await settle(page);
        found.push(...(await chartProblems(page, perDay, language, { days: true })).map((problem) => `sales per day: ${problem}`));
        await screenshot(page, `figures-${tag}-sales-drawer`);
        await page.keyboard.press('Escape');

        await page.goto(`${suite.server.url}/notifications`);
        await page.getByTestId('notification').first().waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'notifications', language)));
        await screenshot(page, `figures-${tag}-admin-notifications`);

        // About: the version in the reader's digits, left to right; the build is a git revision,
        // an identifier, as `git log` writes it.
        await page.goto(`${suite.server.url}/about`);
        const version = page.getByTestId('about-version');
        await version.waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'about', language)));
        await screenshot(page, `figures-${tag}-about`);
        assert.match(await version.innerText(), persian ? /^[۰-۹]+(٫[۰-۹]+)+$/ : /^[0-9]+(\.[0-9]+)+$/);
        assert.equal(await version.locator('bdi[dir="ltr"]').count(), 1, 'the version is set left to right');
        assert.match(await page.getByTestId('about-build').innerText(), /^([0-9a-f]{7,}|unknown)$/);

        // The admin bought nothing: My orders' empty card, in the middle of the page, and what
        // it holds in the middle of the card.
        await page.goto(`${suite.server.url}/my-orders`);
        const empty = page.getByTestId('empty-state');
        await empty.waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'my orders', language)));
        await screenshot(page, `figures-${tag}-my-orders-empty`);
        const off = await empty.evaluate(offCentre);
        assert.ok(Object.values(off).every((px) => px <= 2), `off the middle, in px: ${JSON.stringify(off)}`);

        assert.deepEqual(found, [], 'problems');
        await finish(b, [/status of 40[34] .*\/stream\//]);
      });

      test(`${size.width}×${size.height}, ${persian ? 'Persian' : 'English'}: the fan's dashboard and notifications (the amounts the server wrote in the reader's digits, each named for a screen reader) and an upcoming concert's reminder`, async () => {
        const b = await browserAs(READERS[language].fan, { ...size, reuse: true, prepare });
        const { page } = b;
        const found = [];

        await page.goto(`${suite.server.url}/dashboard`);
        await page.getByTestId('ticket-card').first().waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'dashboard', language)));
        await screenshot(page, `figures-${tag}-fan-dashboard`);

        await page.goto(`${suite.server.url}/notifications`);
        await page.getByTestId('notification').first().waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'notifications', language)));
        await screenshot(page, `figures-${tag}-fan-notifications`);
        // The order's confirmation, written by the server in the reader's digits.
        const bodies = await page.getByTestId('notification-body').allInnerTexts();
        assert.ok(bodies.some((body) => body.includes(persian ? '۹٫۰۰ EUR' : '9.00 EUR')), bodies.join(' | '));
        // Each is named by its title: an unread one as what it marks read.
        const names = await page.getByTestId('notification').evaluateAll((lines) =>
          lines.map((line) => ({ read: line.dataset.read === 'true', title: line.querySelector('[data-testid="notification-title"]').textContent, label: line.getAttribute('aria-label') })),
        );
        for (const { read, title, label } of names) assert.equal(label, read ? title : `${MARK_READ[language]}${title}`);
        // "Mark all as read" (measured whole above) marks them all, the first time it is there to press.
        const markAll = page.getByTestId('notifications-mark-all');
        if (await markAll.isEnabled()) {
          await markAll.click();
          await page.locator('[data-testid="notification"][data-read="false"]').first().waitFor({ state: 'detached' });
        }


        // An upcoming concert's page: "Remind me when doors open" whole (its label wraps) and a
        // thumb's size.
        await page.goto(`${suite.server.url}/concerts/${soon.id}`);
        const remind = page.getByTestId('reminder-ask');
        await remind.waitFor();
        await settle(page);
        found.push(...(await pageProblems(page, 'concert', language)));
        await remind.scrollIntoViewIfNeeded();
        await screenshot(page, `figures-${tag}-fan-concert`);
        const box = await remind.boundingBox();
        assert.ok(box.height >= MIN_TAP && box.width >= MIN_TAP && box.x >= 0 && box.x + box.width <= size.width, JSON.stringify(box));

        assert.deepEqual(found, [], 'problems');
        await finish(b);
      });
    }
  }

  test('390×844, Persian: a notification written in English reads in Persian, and a phone number and its code typed in Persian digits enrol the phone', async () => {
    const prepare = (page) =>
      page.addInitScript(() => {
        localStorage.setItem('language', 'ir');
      });
    const b = await browserAs(ACCOUNTS.switcher, { width: 390, height: 844, prepare });
    const { page } = b;
    await page.goto(`${suite.server.url}/notifications`);
    const title = page.getByTestId('notification-title').first();
    await title.waitFor();
    assert.equal(await title.innerText(), 'سفارش شما تأیید شد');
    const body = await page.getByTestId('notification-body').first().innerText();
    assert.ok(body.includes('۹٫۰۰ EUR') && !/[0-9]/.test(body), body);

    await page.goto(`${suite.server.url}/preferences`);
    const phone = page.getByLabel('شمارهٔ تلفن همراه');
    await phone.waitFor();
    // The example in the reader's digits, the field left to right as a number reads.
    assert.equal(await phone.getAttribute('placeholder'), '+۴۴۷۷۰۰۹۰۰۱۲۳');
    assert.equal(await phone.evaluate((input) => getComputedStyle(input).direction), 'ltr');
    await phone.fill('+۴۴ ۷۷۰۰ ۹۰۰۱۲۴');
    await page.getByRole('button', { name: 'فرستادن کد' }).click();
    await page.getByLabel('گذرواژهٔ فعلی').fill(PASSWORD);
    await page.getByRole('button', { name: 'تأیید', exact: true }).click();
    // The server took it (stored in Latin digits) and texted a code.
    const sms = await waitUntil(() => suite.server.outbox().find((line) => line.channel === 'sms' && line.to.replace(/\s/g, '') === '+447700900124'), { message: 'the SMS' });
    const code = /([0-9۰-۹]{6})/.exec(sms.body)?.[1];
    assert.ok(code, sms.body);
    const persianCode = code.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]);
    // The password prompt closes with a transition: its own «تأیید» is on the page until then.
    await page.getByTestId('step-up-submit').waitFor({ state: 'detached' });
    await page.getByLabel('کد دریافتی با پیامک').fill(persianCode);
    await page.getByRole('button', { name: 'تأیید', exact: true }).click();
    // Enrolled: the number shown masked, in the reader's digits.
    await page.getByText('تلفن: \u2066+۴۴ •••• ••• ۱۲۴\u2069').waitFor();
    await screenshot(page, 'figures-390-ir-phone-enrolled');
    await finish(b);
  });
});

