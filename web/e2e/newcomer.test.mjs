// End-to-end: what a newcomer trips over (issue 30). A full load of the first pages logs no
// console warning; home and the stage load without shifting their layout; the web app is
// installable (its manifest linked, valid and its icons served, as chromium itself reads
// them); a common password is refused while it is typed; an admin's new concert keeps the
// picture chosen without framing it by hand, billed under its project's name when no other
// is given.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { apiSession, cast, createConcert, e2eSuite, fullName, localInput, pageApi, PASSWORD, payCart } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

describe('A newcomer (issue 30)', () => {
  test('a full load of /, /home and /events logs no console warning', async () => {
    const b = await browser();
    const { page } = b;
    for (const path of ['/', '/home']) {
      await page.goto(`${suite.server.url}${path}`);
      await page.waitForURL(/\/home$/);
      await page.waitForLoadState('networkidle');
    }
    await signInAs(page, ACCOUNTS.fan);
    for (const path of ['/events', '/', '/no-such-page']) {
      await page.goto(`${suite.server.url}${path}`);
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual(b.warnings, [], 'console warnings on a full load');
    await finish(b);
  });

  test('home and the stage load without shifting their layout (CLS under 0.1), on a phone and a desktop', async () => {
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const concert = await createConcert(admin, 'Steady Tide');
    for (const [width, height] of [[390, 844], [1280, 800]]) {
      const b = await browser({ width, height });
      const { page } = b;
      // Every shift of each document from its start (the sum: never less than its CLS).
      await page.addInitScript(() => {
        window.encoreShift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.encoreShift += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const shift = async (path, ready) => {
        await page.goto(`${suite.server.url}${path}`);
        await page.getByTestId(ready).first().waitFor();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(500);
        return page.evaluate(() => window.encoreShift);
      };
      const home = await shift('/home', 'home-event');
      assert.ok(home < 0.1, `${width} px: /home shifts by ${home.toFixed(3)}`);
      await signInAs(page, ACCOUNTS.fan);
      const stage = await shift(`/stage/${concert.id}`, 'stage-title');
      assert.ok(stage < 0.1, `${width} px: the stage shifts by ${stage.toFixed(3)}`);
      await finish(b);
    }
  });

  test('the web app is installable: its manifest is linked and valid, with its icons and theme colour', async () => {
    // A profile of its own: chromium never finds a page installable in an incognito context.
    const b = await browser({ persistent: true });
    const { page } = b;
    await page.goto(`${suite.server.url}/home`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    assert.equal(href, '/manifest.webmanifest');
    assert.equal(await page.locator('meta[name="theme-color"]').getAttribute('content'), '#242424');
    const response = await fetch(`${suite.server.url}${href}`);
    assert.equal(response.status, 200);
    const manifest = await response.json();
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.start_url, '/home');
    assert.ok(manifest.name && manifest.short_name && manifest.theme_color && manifest.background_color);
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png' && i.purpose === 'any');
      assert.ok(icon, `a ${size} PNG icon`);
    }
    assert.ok(manifest.icons.some((i) => i.purpose === 'maskable'), 'a maskable icon');
    // Each icon is served, and each PNG is the size it says.
    for (const icon of manifest.icons) {
      const drawn = await page.evaluate(async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        return `${img.naturalWidth}x${img.naturalHeight}`;
      }, icon.src);
      if (icon.sizes !== 'any') assert.equal(drawn, icon.sizes, icon.src);
    }
    // Chromium's own reading of it (what its install prompt and Lighthouse use).
    const cdp = await b.context.newCDPSession(page);
    const read = await cdp.send('Page.getAppManifest');
    assert.deepEqual(read.errors, [], 'chromium reads the manifest without errors');
    const installability = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installability.installabilityErrors.map((e) => e.errorId), [], 'chromium finds it installable');
    await finish(b);
  });

  test('a common password is refused while it is typed, before any submit', async () => {
    const b = await browser({ width: 390, height: 844 });
    const { page } = b;
    await page.goto(`${suite.server.url}/auth/signup`);
    await page.locator('input[name="fullname"]').fill('Common Carl');
    await page.locator('input[name="email"]').fill('carl@example.com');
    await page.locator('input[name="password"]').pressSequentially('sunshine');
    const password = page.locator('input[name="password"]');
    await page.getByText('This password is among the most common ones: choose another.').waitFor();
    await password.pressSequentially('-over-the-harbour');
    await page.getByText('This password is among the most common ones: choose another.').waitFor({ state: 'detached' });
    await finish(b);
  });

  test('a new concert keeps the picture chosen, framed in the middle, without "Use this frame"; the project bills it', async () => {
    const picture = join(tmpdir(), `encore-newcomer-${process.pid}.png`);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480', '-frames:v', '1', picture]);
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const project = await admin('POST', '/api/v1/projects', { name: 'The Quiet Harbour' });
    assert.equal(project.status, 201);
    const b = await browser({ width: 1280, height: 1000 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('event-create').click();
    const form = page.getByTestId('event-form');
    await form.getByLabel('Project (artist)').fill('Quiet');
    await page.getByRole('option', { name: 'The Quiet Harbour' }).click();
    // The billing name shows the project's until another is typed.
    assert.equal(await form.locator('input[name="artistName"]').getAttribute('placeholder'), 'The Quiet Harbour');
    await form.locator('input[name="title"]').fill('Low Tide');
    const startsAt = new Date(Date.now() + 3 * 86_400_000);
    startsAt.setSeconds(0, 0);
    await form.locator('input[name="startsAt"]').fill(localInput(startsAt));
    await form.locator('input[name="price"]').fill('10');
    await form.locator('input[type="file"]').setInputFiles(picture);
    await form.getByTestId('image-cropper').waitFor();
    // Saved straight away: the frame shown is the one kept.
    await page.getByTestId('event-save').click();
    await form.waitFor({ state: 'detached' });
    const managed = await pageApi(page, 'GET', '/api/v1/events/manage');
    const { id } = managed.json.payload.find((event) => event.title === 'Low Tide');
    const concert = (await pageApi(page, 'GET', `/api/v1/events/${id}`)).json.payload;
    assert.equal(concert.artistName, 'The Quiet Harbour');
    assert.ok(concert.image, 'the picture was saved');
    const stored = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    }, concert.image);
    // 640×480 framed at 16:9 in the middle: all its width, 360 of its height.
    assert.deepEqual(stored, { width: 640, height: 360 });
    rmSync(picture, { force: true });
    await finish(b);
  });

  test('a concert is shared from its public page and from the stage (the link copied where there is no share sheet); My events offers the calendar', async () => {
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    const concert = await createConcert(admin, 'Share the Tide', { startsAt: new Date(Date.now() + 2 * 86_400_000) });
    const fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, PASSWORD);
    assert.equal((await fan('POST', `/api/v1/cart/${concert.id}`)).status, 200);
    assert.equal((await payCart(fan, fullName(ACCOUNTS.fan))).json.payload?.status, 'fulfilled');
    const b = await browser({ width: 390, height: 844 });
    const { page, context } = b;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    const publicPage = `${suite.server.url}/concerts/${concert.id}`;
    const shareAndRead = async () => {
      const share = page.getByTestId('share');
      await share.click();
      await page.locator('[data-testid="share"][data-outcome]').waitFor();
      const outcome = await share.getAttribute('data-outcome');
      // Debian's chromium has no share sheet on Linux: the link is copied.
      assert.equal(outcome, 'copied');
      assert.equal(await share.innerText(), 'Link copied');
      return page.evaluate(() => navigator.clipboard.readText());
    };
    // Signed out, on the public page.
    await page.goto(publicPage);
    await page.getByTestId('concert-title').waitFor();
    assert.equal(await shareAndRead(), publicPage);
    // Signed in, on the stage: the public page is what is shared.
    await signInAs(page, ACCOUNTS.fan);
    await page.goto(`${suite.server.url}/stage/${concert.id}`);
    await page.getByTestId('stage-title').waitFor();
    await page.evaluate(() => navigator.clipboard.writeText(''));
    assert.equal(await shareAndRead(), publicPage);
    // My events: the upcoming ticket's card has the calendar file.
    await page.goto(`${suite.server.url}/my-events`);
    const card = page.getByTestId('ticket-card').filter({ hasText: 'Share the Tide' });
    const calendar = card.getByTestId('add-to-calendar');
    assert.equal(await calendar.getAttribute('href'), `/api/v1/events/${concert.id}/calendar.ics`);
    const ics = await fetch(`${suite.server.url}/api/v1/events/${concert.id}/calendar.ics`);
    assert.equal(ics.status, 200);
    assert.match(await ics.text(), /BEGIN:VCALENDAR[\s\S]*Share the Tide/);
    await finish(b);
  });

  test('a signed-out visitor switches the theme, on the home page and at sign-in, and it is kept', async () => {
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/home`);
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    assert.equal(await scheme(), 'dark');
    await page.getByTestId('theme-toggle').click();
    assert.equal(await scheme(), 'light');
    assert.equal(await page.evaluate(() => localStorage.getItem('theme-preset')), 'light');
    await page.goto(`${suite.server.url}/auth/login`);
    assert.equal(await scheme(), 'light');
    await page.getByTestId('theme-toggle').click();
    assert.equal(await scheme(), 'dark');
    await finish(b);
  });

  test('a toast comes down below an open drawer, clear of its close button', async () => {
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
    await createConcert(admin, 'Drawer Tide');
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('live-indicator').and(page.locator('[data-phase="live"]')).waitFor();
    await page.getByTestId('manage-row').filter({ hasText: 'Drawer Tide' }).getByRole('button', { name: 'Sales and stream key' }).click();
    const close = page.locator('.mantine-Drawer-close');
    await close.waitFor();
    // A sign-up is staff activity: its toast arrives while the drawer is open.
    const signup = await fetch(`${suite.server.url}/api/v1/accounts/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: 'drawer-watcher@example.com', password: PASSWORD, person: { firstName: 'Drew', lastName: 'Watcher' } }),
    });
    assert.equal(signup.status, 201);
    const toast = page.getByTestId('live-toast').filter({ hasText: /Drew Watcher\u2069? signed up/ });
    await toast.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(400); // the toast's slide-in
    const [button, note] = [await close.boundingBox(), await toast.boundingBox()];
    const apart = note.y >= button.y + button.height || note.x + note.width <= button.x || note.x >= button.x + button.width;
    assert.ok(apart, `the toast ${JSON.stringify(note)} covers the close button ${JSON.stringify(button)}`);
    await close.click();
    await page.locator('.mantine-Drawer-content').waitFor({ state: 'detached' });
    await finish(b);
  });
});
