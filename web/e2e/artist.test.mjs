// End-to-end: an artist's page (issue 30, "new users"). A project with its own words and a
// picture uploaded through the API announces a concert; a visitor goes from the home page's
// card to `/artists/{id}` by the artist's name and finds the picture, the name, the words and
// the concert under "Coming up"; the card itself still opens the concert, whose page links back
// to the artist (by keyboard too). A crawler's plain GET of the page has its preview tags; an
// unknown artist is the app's not-found page. At 360×800, in English and in Persian, nothing
// overflows, overlaps or is cut, every control is named and a thumb's size, and the public
// header stays one row (the language and the theme in its menu). Staff upload a
// picture from the projects page, and are told when a file is no picture.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiSession, cast, e2eSuite, layoutProblems, meta, PASSWORD, screenshot, unnamedControls, uploadPicture, writePicture } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada' });
const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const NAME = 'The Harbour Lights Collective';
const FIRST = 'Four friends who play by the sea, with two guitars, a fiddle and a very old accordion.';
const SECOND = 'Every summer we take the boat out and play until the sun comes up.';
const DESCRIPTION = `${FIRST}\n\n${SECOND}`;
const TITLE = 'Midsummer by the Sea';
const MIN_TAP = 44;

let admin;
let workDir;
let picture;
/** The project with a picture and an announced concert, and that concert. */
let artist;
let concert;

/** A project (with `description`) and, unless `announce` is false, a concert of it published
 * two days ahead; through the admin's API session. */
async function projectWithConcert(name, title, { description = '', announce = true } = {}) {
  const project = await admin('POST', '/api/v1/projects', { name, description });
  assert.equal(project.status, 201, JSON.stringify(project.json));
  const id = project.json.payload.id;
  if (!announce) return { id };
  const created = await admin('POST', '/api/v1/events', {
    projectId: id,
    title,
    artistName: name,
    startsAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    durationMinutes: 90,
    price: 1200,
    currency: 'EUR',
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const eventId = created.json.payload.id;
  assert.equal((await admin('POST', `/api/v1/events/${eventId}/publish`)).status, 200);
  return { id, eventId };
}

/** Waits for the fonts and every picture on the page, then a moment for the layout. */
async function settled(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)));
  });
  await page.waitForTimeout(300);
}

before(async () => {
  await suite.ready;
  admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, PASSWORD);
  workDir = mkdtempSync(join(tmpdir(), 'encore-artist-e2e-'));
  picture = join(workDir, 'band.png');
  writePicture(picture);
  const made = await projectWithConcert(NAME, TITLE, { description: DESCRIPTION });
  artist = made.id;
  concert = made.eventId;
  // The picture, as a member's or staff's client sends it: multipart, field `file`.
  const uploaded = await uploadPicture(admin, `/api/v1/projects/${artist}/image`, picture);
  assert.match(uploaded.json.payload.image ?? '', new RegExp(`^/api/v1/artists/${artist}/image\\?v=`));
  assert.ok(uploaded.json.payload.thumbnail, 'a thumbnail');
});

after(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("An artist's page", () => {
  test("a visitor goes from a home card to the artist by its name: picture, name, words and the concert under Coming up; the card still opens the concert, which links back", async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await page.goto(`${suite.server.url}/home`);
    const card = page.getByTestId('home-upcoming').getByTestId('home-event').filter({ hasText: TITLE });
    const byName = card.getByRole('link', { name: NAME });
    assert.equal(await byName.getAttribute('href'), `/artists/${artist}`);
    await byName.click();
    await page.waitForURL(new RegExp(`/artists/${artist}$`));

    const heading = page.getByRole('heading', { level: 1 });
    assert.equal(await heading.innerText(), NAME);
    const img = page.getByTestId('artist-page').getByRole('img', { name: NAME });
    await img.waitFor();
    // Shown once it has loaded (waited for, not raced).
    const loaded = await img.evaluate((el) =>
      el.complete && el.naturalWidth > 0
        ? true
        : new Promise((resolve) => {
            el.addEventListener('load', () => resolve(el.naturalWidth > 0), { once: true });
            el.addEventListener('error', () => resolve(false), { once: true });
          }),
    );
    assert.ok(loaded, 'the picture is shown');
    assert.match(await img.getAttribute('src'), new RegExp(`^/api/v1/artists/${artist}/image\\?v=`));
    const words = page.getByTestId('artist-description');
    assert.equal(await words.locator(':scope > *').count(), 2, 'two paragraphs');
    assert.equal(await words.locator(':scope > *').nth(0).innerText(), FIRST);
    assert.equal(await words.locator(':scope > *').nth(1).innerText(), SECOND);
    await page.getByTestId('artist-upcoming').getByTestId('home-event').filter({ hasText: TITLE }).waitFor();
    assert.equal(await page.getByTestId('artist-upcoming').getByRole('heading', { level: 2 }).innerText(), 'Coming up');
    assert.equal(await page.getByTestId('artist-live').count(), 0);
    assert.equal(await page.getByTestId('artist-replays').count(), 0);
    assert.equal(await page.getByTestId('artist-concert-count').innerText(), 'Concerts: 1');
    assert.equal(await page.title(), `${NAME} · Encore`);
    await settled(page);
    await screenshot(page, 'artist-desktop-gb');

    // The card anywhere but the artist's name opens the concert (Playwright clicks its middle).
    await page.getByTestId('artist-upcoming').getByTestId('home-event').filter({ hasText: TITLE }).click();
    await page.waitForURL(new RegExp(`/concerts/${concert}$`));
    // Reached inside the app (no server answer), the tab still names the concert.
    await page.getByTestId('concert-title').waitFor();
    await page.waitForFunction((title) => document.title === title, `${TITLE} · Encore`);
    // From the concert, back to the artist by keyboard.
    const back = page.getByTestId('concert-artist');
    assert.equal(await back.innerText(), NAME);
    await back.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/artists/${artist}$`));
    await page.getByTestId('artist-name').waitFor();
    await finish(b);
  });

  test('a crawler reading /artists/{id} gets og:title, og:image and the page title; an unknown or unannounced artist is a 404', async () => {
    const response = await fetch(`${suite.server.url}/artists/${artist}`, { headers: { 'User-Agent': 'facebookexternalhit/1.1' } });
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.equal(meta(html, 'og:title'), NAME);
    assert.equal(meta(html, 'og:url'), `${suite.server.url}/artists/${artist}`);
    assert.match(meta(html, 'og:description') ?? '', /play by the sea/);
    assert.match(html, new RegExp(`<title>${NAME} · Encore</title>`));
    const image = meta(html, 'og:image');
    assert.ok(image?.startsWith(`${suite.server.url}/api/v1/artists/${artist}/image`), image ?? 'no og:image');
    const served = await fetch(image);
    assert.equal(served.status, 200);
    assert.match(served.headers.get('content-type') ?? '', /^image\//);

    const quiet = await projectWithConcert('Still Rehearsing', '', { announce: false });
    for (const id of ['no-such-project', quiet.id]) {
      const page = await fetch(`${suite.server.url}/artists/${id}`);
      assert.equal(page.status, 404, id);
      assert.equal(meta(await page.text(), 'og:title'), null);
      const api = await fetch(`${suite.server.url}/api/v1/artists/${id}`);
      assert.equal(api.status, 404);
      assert.equal((await api.json()).success, false);
    }
  });

  test("an unknown artist is the app's not-found page", async () => {
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/artists/no-such-project`);
    await page.getByText("This page's gone fishing.").waitFor();
    await finish(b, [/status of 404/]);
  });

  for (const language of ['gb', 'ir']) {
    test(`at 360×800 in ${language === 'ir' ? 'Persian' : 'English'}, the artist, home and concert pages neither overflow nor leave a control unnamed or too small, under a one-row header`, async () => {
      const b = await browser({ width: 360, height: 800 });
      const { page } = b;
      await page.addInitScript((lang) => {
        localStorage.setItem('language', lang);
      }, language);
      const found = [];
      for (const [name, path, ready] of [
        ['artist', `/artists/${artist}`, 'artist-upcoming'],
        ['home', '/home', 'home-upcoming'],
        ['concert', `/concerts/${concert}`, 'concert-page'],
      ]) {
        await page.goto(`${suite.server.url}${path}`);
        await page.getByTestId(ready).waitFor();
        await settled(page);
        assert.equal(await page.evaluate(() => document.documentElement.dir), language === 'ir' ? 'rtl' : 'ltr');
        const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        assert.ok(width.scroll <= width.client, `${name}: ${width.scroll} px wide on a ${width.client} px screen`);
        assert.deepEqual(await unnamedControls(page, 'body'), [], `${name}: controls without a name`);
        found.push(...(await page.evaluate(layoutProblems, { minTap: MIN_TAP })).map((problem) => `${name}: ${problem}`));
        // The public header is one row: the name, the page's button and the menu.
        const header = await page.getByTestId('public-header').boundingBox();
        assert.ok(header.height <= 80, `${name}: the public header is ${Math.round(header.height)} px tall`);
        await screenshot(page, `artist-phone-${language}-${name}`);
        if (name === 'artist') {
          assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), NAME);
          await page.getByTestId('artist-upcoming').scrollIntoViewIfNeeded();
          await screenshot(page, `artist-phone-${language}-concerts`);
        }
      }
      assert.deepEqual(found, [], 'layout problems');
      // The header's menu holds the language and the theme on a phone.
      await page.getByTestId('public-menu').click();
      await page.getByTestId(`public-menu-language-${language === 'ir' ? 'gb' : 'ir'}`).click();
      await page.waitForFunction((dir) => document.documentElement.dir === dir, language === 'ir' ? 'ltr' : 'rtl');
      await page.getByTestId('public-menu').click();
      await page.getByTestId('public-menu-theme').click();
      await page.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'light');
      await finish(b);
    });
  }

  test('staff upload a picture from the projects page, see it there and on the artist page, and are told when a file is no picture', async () => {
    const band = await projectWithConcert('Night Shift Trio', 'Late Night Session');
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/projects`);
    const card = page.getByTestId('project-card').filter({ hasText: 'Night Shift Trio' });
    await card.getByTestId('artist-initials').waitFor();
    assert.equal(await card.getByTestId('artist-picture').count(), 0);

    // Not a picture: refused before it is sent, in words.
    let chooser = page.waitForEvent('filechooser');
    await card.getByTestId('project-picture-upload').click();
    await (await chooser).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await page.locator('.mantine-Notification-root').filter({ hasText: 'File type is incorrect' }).waitFor();

    chooser = page.waitForEvent('filechooser');
    await card.getByTestId('project-picture-upload').click();
    await (await chooser).setFiles(picture);
    await page.locator('.mantine-Notification-root').filter({ hasText: 'The picture is saved.' }).waitFor();
    const thumb = card.getByTestId('artist-picture');
    await thumb.waitFor();
    assert.ok(await thumb.evaluate((el) => el.decode().then(() => el.naturalWidth > 0)), 'the thumbnail is shown');
    assert.match(await thumb.getAttribute('src'), new RegExp(`^/api/v1/artists/${band.id}/image\\?v=.*size=thumb`));
    assert.equal(await card.getByTestId('project-picture-upload').innerText(), 'Change the picture');
    assert.equal(await page.getByTestId('project-card').filter({ hasText: NAME }).getByTestId('project-artist-page').count(), 1);
    await settled(page);
    await screenshot(page, 'artist-projects-picture');
    // On a phone, in Persian too, the card's picture and its controls fit.
    await page.setViewportSize({ width: 360, height: 800 });
    for (const language of ['gb', 'ir']) {
      await page.evaluate((lang) => localStorage.setItem('language', lang), language);
      await page.reload();
      await card.getByTestId('artist-picture').waitFor();
      await card.scrollIntoViewIfNeeded();
      await settled(page);
      assert.deepEqual(await unnamedControls(page, '[data-testid="projects-grid"]'), [], `${language}: controls without a name`);
      const problems = await page.evaluate(layoutProblems, { minTap: MIN_TAP });
      assert.deepEqual(problems, [], `${language}: layout problems on the projects page`);
      await screenshot(page, `artist-projects-phone-${language}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'gb'));
    await page.reload();
    await page.setViewportSize({ width: 1280, height: 900 });

    await card.getByTestId('project-artist-page').click();
    await page.waitForURL(new RegExp(`/artists/${band.id}$`));
    const shown = page.getByTestId('artist-page').getByRole('img', { name: 'Night Shift Trio' });
    await shown.waitFor();
    assert.ok(await shown.evaluate((el) => el.decode().then(() => el.naturalWidth > 0)), 'the picture is on the artist page');
    await finish(b);
  });
});
