// End-to-end: a concert's public page (issue 15) — what a crawler reads of a shared link,
// a visitor who signs up from it and comes back, the lobby before the doors open and its
// "Remind me when doors open".
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiSession, cast, createConcert, e2eSuite, fullName, meta, PASSWORD, payCart, PNG } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'ada', fan: 'fiona', curious: 'ann' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

/** A published concert starting in `inMs`, with a picture uploaded by the admin. */
async function concertWithPicture(title, inMs) {
  const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  const { id } = await createConcert(admin, title, { startsAt: new Date(Date.now() + inMs) });
  const b = await browser();
  await signInAs(b.page, ACCOUNTS.admin);
  const status = await b.page.evaluate(
    async ([eventId, png]) => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('encore_access_token='))?.split('=')[1];
      const form = new FormData();
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      form.append('file', new Blob([bytes], { type: 'image/png' }), 'poster.png');
      const response = await fetch(`/api/v1/events/${eventId}/image`, { method: 'POST', headers: { Authorization: `Bearer ${decodeURIComponent(token ?? '')}` }, body: form });
      return response.status;
    },
    [id, PNG.toString('base64')],
  );
  assert.equal(status, 200);
  await finish(b);
  return id;
}

describe('A concert anyone can find and share', () => {
  test('a shared concert URL answered to a crawler (plain HTTP GET) has og:title and og:image', async () => {
    await suite.ready;
    const id = await concertWithPicture('Harbour Lights', 3 * 3_600_000);
    const response = await fetch(`${suite.server.url}/concerts/${id}`, { headers: { 'User-Agent': 'facebookexternalhit/1.1' } });
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.equal(meta(html, 'og:title'), 'Harbour Lights — Harbour Lights band');
    assert.equal(meta(html, 'twitter:card'), 'summary_large_image');
    assert.equal(meta(html, 'og:url'), `${suite.server.url}/concerts/${id}`);
    const image = meta(html, 'og:image');
    assert.ok(image?.startsWith(`${suite.server.url}/api/v1/events/${id}/image`), image ?? 'no og:image');
    const picture = await fetch(image);
    assert.equal(picture.status, 200);
    assert.match(picture.headers.get('content-type') ?? '', /^image\//);
    // An unknown concert: the app's page (its 404), no tags.
    const unknown = await fetch(`${suite.server.url}/concerts/no-such-concert`);
    assert.equal(unknown.status, 404);
    assert.equal(meta(await unknown.text(), 'og:title'), null);
  });

  test('a visitor signs up from a concert page and lands back on it, the e-mail carried over', async () => {
    await suite.ready;
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    const { id } = await createConcert(admin, 'Open Air Evening', { startsAt: new Date(Date.now() + 5 * 3_600_000) });
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await page.goto(`${suite.server.url}/concerts/${id}`);
    assert.equal(await page.getByTestId('concert-title').innerText(), 'Open Air Evening');
    await page.getByTestId('concert-price').waitFor();
    await page.getByTestId('concert-sign-up').click();
    await page.waitForURL(/\/auth\/signup\?redirect=/);
    const email = 'walk-in@example.com';
    await page.locator('input[name="fullname"]').fill('Walk In');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/auth\/login\?redirect=/);
    assert.equal(await page.locator('input[name="email"]').inputValue(), email);
    // Only the password is left to type, where the cursor already is; the password manager
    // is offered the e-mail as the user name.
    // (Focus lands as the lazily loaded page mounts: wait for it rather than race it.)
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password', null, { timeout: 5_000 });
    assert.equal(await page.locator('input[name="email"]').getAttribute('autocomplete'), 'username');
    assert.equal(await page.locator('input[name="password"]').getAttribute('autocomplete'), 'current-password');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(new RegExp(`/concerts/${id}$`));
    await page.getByTestId('concert-page').getByTestId('event-buy').waitFor();
    await finish(b);
  });

  test('a hostile redirect after sign-in stays on this site', async () => {
    await suite.ready;
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/auth/login?redirect=${encodeURIComponent('//evil.example/steal')}&email=${encodeURIComponent(ACCOUNTS.fan.email)}`);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/dashboard$/);
    assert.equal(new URL(page.url()).origin, suite.server.url);
    await finish(b);
  });

  test('before the doors the Listen button is disabled with the doors time, the calendar and the reminder', async () => {
    await suite.ready;
    const startsAt = new Date(Date.now() + 2 * 3_600_000);
    startsAt.setSeconds(0, 0);
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    const { id } = await createConcert(admin, 'Not Yet', { startsAt });
    const fan = await apiSession(suite.server.url, ACCOUNTS.fan.email, ACCOUNTS.fan.password);
    assert.equal((await fan('POST', `/api/v1/cart/${id}`)).status, 200);
    assert.equal((await payCart(fan, fullName(ACCOUNTS.fan))).status, 200);

    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.fan);
    for (const path of [`/concerts/${id}`, '/my-events']) {
      await page.goto(`${suite.server.url}${path}`);
      const lobby = page.getByTestId('doors-lobby').first();
      await lobby.waitFor();
      assert.equal(await lobby.getByTestId('player-listen-disabled').isDisabled(), true);
      const doors = await page.evaluate((iso) => new Date(Date.parse(iso) - 15 * 60_000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }), startsAt.toISOString());
      assert.equal(await lobby.getByTestId('doors-at').innerText(), `Doors open at ${doors}`);
      assert.match(await lobby.innerText(), /notification when the doors open/);
      // Never a red error, never the player.
      assert.equal(await page.getByTestId('player-refused').count(), 0);
      assert.equal(await page.getByTestId('player-listen').count(), 0);
    }
    const href = await page.getByTestId('add-to-calendar').first().getAttribute('href');
    const ics = await fetch(new URL(href, suite.server.url));
    assert.match(ics.headers.get('content-type') ?? '', /^text\/calendar/);
    assert.match(await ics.text(), /\r\nSUMMARY:Not Yet — Not Yet band\r\n/);
    await finish(b);
  });

  test('a signed-in fan without a ticket asks to be reminded when the doors open, and it holds after a reload', async () => {
    await suite.ready;
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    const { id } = await createConcert(admin, 'Remind Me Later', { startsAt: new Date(Date.now() + 3 * 3_600_000) });

    // A visitor is sent to sign in and back to the concert.
    const visitor = await browser();
    await visitor.page.goto(`${suite.server.url}/concerts/${id}`);
    const signIn = visitor.page.getByTestId('reminder-sign-in');
    await signIn.waitFor();
    assert.equal(await signIn.getAttribute('href'), `/auth/login?redirect=${encodeURIComponent(`/concerts/${id}`)}`);
    await finish(visitor);

    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.curious);
    await page.goto(`${suite.server.url}/concerts/${id}`);
    const lobby = page.getByTestId('doors-lobby');
    await lobby.getByTestId('reminder-ask').click();
    await lobby.getByTestId('reminder-asked').waitFor();
    assert.equal(await lobby.getByTestId('reminder-asked').innerText(), "You'll be notified when doors open");
    await page.reload();
    await page.getByTestId('doors-lobby').getByTestId('reminder-asked').waitFor();
    assert.equal(await page.getByTestId('reminder-ask').count(), 0);
    // Cancelled, it stays cancelled.
    await page.getByTestId('reminder-cancel').click();
    await page.getByTestId('reminder-ask').waitFor();
    await page.reload();
    await page.getByTestId('reminder-ask').waitFor();
    assert.equal(await page.getByTestId('reminder-asked').count(), 0);
    await finish(b);
  });
});
