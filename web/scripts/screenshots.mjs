// The README's screenshots (docs/screenshots/): the stage view, the mini-player, the public
// concert page and the admin dashboard, in dark and light and in Persian. The real encore
// binary, a show pushed with `encore push`, Debian's chromium. `make screenshots` runs it
// (after `npm run build`, with ENCORE_BIN set); it is not part of `make test`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSession, createConcert, openBrowser, payCart, signIn, startPush, startServer, writeSine } from '../e2e/harness.mjs';

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots');
const PASSWORD = 'Encore-shots-Passw0rd';
const ADMIN = { email: 'ada@example.com', password: PASSWORD, role: 'admin', firstName: 'Ada', lastName: 'Lovelace' };
const FAN = { email: 'rosa@example.com', password: PASSWORD, role: 'user', firstName: 'Rosa', lastName: 'Roams' };
const VARIANTS = [
  { name: 'dark', scheme: 'dark', language: 'gb' },
  { name: 'light', scheme: 'light', language: 'gb' },
  { name: 'persian', scheme: 'light', language: 'ir' },
];

/** A 16:9 picture for a concert, drawn by ffmpeg. */
async function picture(admin, concert, dir, colours) {
  const file = join(dir, `${concert.id}.png`);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `gradients=s=1280x720:${colours}:n=3:seed=11`, '-frames:v', '1', file]);
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)], { type: 'image/png' }), 'picture.png');
  const uploaded = await admin('POST', `/api/v1/events/${concert.id}/image`, form);
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.json));
}

/** The variant's theme and language, as the app stores them, on a page of the app. */
async function prepare(page, url, variant) {
  await page.goto(`${url}/home`);
  await page.evaluate(({ scheme, language }) => {
    localStorage.setItem('theme-preset', scheme);
    localStorage.setItem('language', language);
  }, variant);
}

async function shoot(page, name) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

const server = await startServer([ADMIN, FAN]);
const work = mkdtempSync(join(tmpdir(), 'encore-shots-'));
let push;
try {
  mkdirSync(OUT, { recursive: true });
  const admin = await apiSession(server.url, ADMIN.email, PASSWORD);
  const fan = await apiSession(server.url, FAN.email, PASSWORD);
  const live = await createConcert(admin, 'Midnight Sessions', { startsAt: new Date(Date.now() - 5 * 60_000) });
  await picture(admin, live, work, 'c0=0x3b1e8a:c1=0xe0406a:c2=0xf5b041');
  const next = await createConcert(admin, 'Harbour Lights', { startsAt: new Date(Date.now() + 3 * 86_400_000) });
  await picture(admin, next, work, 'c0=0x0b4f6c:c1=0x01baef:c2=0xfbfbff');
  assert.equal((await fan('POST', `/api/v1/cart/${live.id}`)).status, 200);
  assert.equal((await payCart(fan, 'Rosa Roams')).json.payload?.status, 'fulfilled');
  const audio = join(work, 'show.aac');
  writeSine(audio, 392);
  push = startPush(server.url, audio, live);

  for (const variant of VARIANTS) {
    const colorScheme = variant.scheme;
    // A visitor: the public concert page.
    const visitor = await openBrowser({ width: 1280, height: 800, colorScheme });
    await prepare(visitor.page, server.url, variant);
    await visitor.page.goto(`${server.url}/concerts/${next.id}`);
    await visitor.page.getByRole('img').first().waitFor();
    await shoot(visitor.page, `concert-page-${variant.name}`);
    await visitor.close();

    // The fan: the stage view with the show playing, then the bar on another page.
    const listener = await openBrowser({ width: 1280, height: 800, colorScheme, args: ['--autoplay-policy=no-user-gesture-required'] });
    await prepare(listener.page, server.url, variant);
    await signIn(listener.page, server.url, FAN.email, PASSWORD);
    await listener.page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    await listener.page.goto(`${server.url}/stage/${live.id}`);
    await listener.page.getByTestId('player-listen').click();
    await listener.page.getByTestId('player-live-badge').first().waitFor({ timeout: 30_000 });
    await shoot(listener.page, `stage-${variant.name}`);
    // In-app navigation (a reload would stop the audio): the router follows popstate.
    await listener.page.evaluate(() => {
      window.history.pushState({}, '', '/events');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await listener.page.getByTestId('event-card').first().waitFor();
    await listener.page.getByTestId('mini-player').waitFor();
    await shoot(listener.page, `mini-player-${variant.name}`);
    await listener.close();

    // The admin: the dashboard, leading with the period's sales.
    const staff = await openBrowser({ width: 1280, height: 800, colorScheme });
    await prepare(staff.page, server.url, variant);
    await signIn(staff.page, server.url, ADMIN.email, PASSWORD);
    await staff.page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    await staff.page.goto(`${server.url}/dashboard`);
    await staff.page.getByTestId('sales-figures').waitFor();
    await shoot(staff.page, `dashboard-${variant.name}`);
    await staff.close();
  }
} finally {
  push?.kill('SIGTERM');
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
