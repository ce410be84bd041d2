// End-to-end harness: the real `encore` binary on a free port and a temporary data dir,
// and Debian's chromium driven by playwright-core. Never downloads a browser.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = resolve(here, '..', 'dist');
export const SCREENSHOTS = resolve(here, 'screenshots');
// Debian's chromium-headless-shell (the same Blink and V8 as /usr/bin/chromium, without the
// full browser's UI machinery; playwright's own default for headless runs): the whole suite
// took 466 s against 656 s with /usr/bin/chromium, using a third less CPU (docs/ci.md,
// thirtieth session). `CHROMIUM_PATH` picks another, e.g. the full browser.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** The password every e2e account is seeded with. */
export const PASSWORD = 'Encore-e2e-Passw0rd';

/** An account a server is seeded with (`startServer`, `e2eSuite`): it signs in with PASSWORD,
 * is a fan (`user`) unless `role` says otherwise and, with a `phone`, is asked for a code
 * sent to it at sign-in. */
export function person(email, firstName, lastName, { role = 'user', phone } = {}) {
  return { email, password: PASSWORD, role, firstName, lastName, ...(phone ? { phone } : {}) };
}

/** The people the e2e files take their accounts from (`cast`). Every file seeds a server and
 * a database of its own, so the same person signs in in many files. */
export const CAST = Object.freeze({
  sasha: person('sasha@example.com', 'Sasha', 'Root', { role: 'sa' }),
  ada: person('ada@example.com', 'Ada', 'Admin', { role: 'admin' }),
  bea: person('bea@example.com', 'Bea', 'Boss', { role: 'admin' }),
  shirin: person('shirin@example.com', 'شیرین', 'تهرانی', { role: 'admin' }),
  fiona: person('fiona@example.com', 'Fiona', 'Fan'),
  ann: person('ann@example.com', 'Ann', 'Bell'),
  ben: person('ben@example.com', 'Ben', 'Cole'),
  sara: person('sara@example.com', 'سارا', 'ملکی'),
  // A fan who plays in bands: added to a concert's project, she runs its live panel.
  aria: person('aria@example.com', 'Aria', 'Voss'),
});

/** A file's accounts, by the part each plays in it: `cast({ admin: 'ada', fan: 'fiona', long:
 * person(…) })`. A name takes a copy of that person of CAST (a file may change its copy); an
 * account is the file's own. */
export function cast(parts) {
  return Object.fromEntries(
    Object.entries(parts).map(([part, who]) => {
      if (typeof who !== 'string') return [part, who];
      assert.ok(CAST[who], `${who} is not one of the cast`);
      return [part, { ...CAST[who] }];
    }),
  );
}

/** "First Last": the name an account signs up with, and that a buyer pays with. */
export const fullName = (account) => `${account.firstName} ${account.lastName}`;

/** `text` escaped for a regular expression, in which it then matches itself to the letter. */
export const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns something truthy (returned), or throws after `timeout`. */
export async function waitUntil(check, { timeout = 20_000, interval = 200, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${message}`);
    await sleep(interval);
  }
}

/** `encore serve` on two free ports (HTTP and the Icecast ingest), once /api/v1/health answers. */
async function serve(bin, dataDir) {
  const port = await freePort();
  let ingestPort = await freePort();
  while (ingestPort === port) ingestPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(join(dataDir, 'server.log'), { flags: 'a' });
  const child = spawn(
    bin,
    ['serve', '--bind', `127.0.0.1:${port}`, '--ingest-bind', `127.0.0.1:${ingestPort}`, '--data-dir', dataDir, '--public-url', url, '--web-dir', WEB_DIST],
    { env: { ...process.env, ENCORE_AUTH_RATE_PER_MINUTE: '1000', ENCORE_PAYMENTS: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  child.on('exit', (code) => {
    exited = code;
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== null) {
      const error = new Error(`encore serve exited with ${exited}; see ${join(dataDir, 'server.log')}`);
      error.exitedAtStart = true;
      throw error;
    }
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return { url, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('encore serve did not become healthy in 30 s');
    }
    await sleep(100);
  }
}

/**
 * Seeds the accounts (before `serve`: SQLite file locking), starts the server and waits
 * for /api/v1/health.
 */
export async function startServer(accounts) {
  const bin = process.env.ENCORE_BIN;
  if (!bin || !existsSync(bin)) throw new Error('Set ENCORE_BIN to the path of the encore server binary.');
  if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error(`${WEB_DIST} is missing: run "npm run build" first.`);
  const dataDir = mkdtempSync(join(tmpdir(), 'encore-e2e-'));
  for (const account of accounts) {
    const args = ['admin', 'create', '--data-dir', dataDir, '--email', account.email, '--password', account.password, '--role', account.role];
    if (account.firstName) args.push('--first-name', account.firstName, '--last-name', account.lastName ?? '');
    if (account.phone) args.push('--phone', account.phone, '--mfa');
    execFileSync(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  }
  // Files run side by side (`--test-concurrency`): each server has its own ports, both picked
  // free; another file's server may take one between the pick and the bind, so a server that
  // exits at start is started again on new ports.
  let started;
  for (let attempt = 1; ; attempt++) {
    try {
      started = await serve(bin, dataDir);
      break;
    } catch (error) {
      if (attempt === 3 || !error.exitedAtStart) throw error;
    }
  }
  const { url, child } = started;
  return {
    url,
    dataDir,
    /** The dev outbox: JSON lines with channel, to, subject, body, created_at. */
    outbox() {
      const file = join(dataDir, 'outbox.jsonl');
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        for (let i = 0; i < 50 && child.exitCode === null && child.signalCode === null; i++) await sleep(100);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One chromium per file and set of switches, started when first asked for and closed after
 * the file's tests; each `openBrowser` is a context of its own in it. */
const chromiums = new Map();
function sharedChromium(args) {
  const key = args.join(' ');
  if (!chromiums.has(key)) {
    const launched = chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args] });
    chromiums.set(key, launched);
    // A chromium that failed to start or went away is started again by the next test.
    launched.then(
      (browser) => browser.on('disconnected', () => chromiums.delete(key)),
      () => chromiums.delete(key),
    );
  }
  return chromiums.get(key);
}
after(async () => {
  for (const launched of [...chromiums.values()]) await (await launched.catch(() => null))?.close();
  chromiums.clear();
});

/** Fills the test provider's hosted card form (in any language) and submits it. */
export async function payWithCard(page, card) {
  await page.waitForURL(/\/pay\//);
  await page.locator('input[name="name"]').fill('Card Holder');
  await page.locator('input[name="cardNumber"]').fill(card);
  await page.locator('input[name="expiry"]').fill('12/34');
  await page.locator('input[name="cvc"]').fill('123');
  await page.locator('#pay button[type=submit]').click();
}

/** Pays the cart open in `page` with a card that succeeds and opens the receipt of the order
 * it made, at `baseUrl`; answers the receipt, once shown. */
export async function payToReceipt(page, baseUrl) {
  await page.getByTestId('pay-now').click();
  await payWithCard(page, '4242 4242 4242 4242');
  await page.waitForURL(/\/checkout-success\?order=/);
  const order = new URL(page.url()).searchParams.get('order');
  await page.goto(`${baseUrl}/receipts/${order}`);
  const receipt = page.getByTestId('receipt');
  await receipt.waitFor();
  return receipt;
}

/** A fresh browser: a new context (its own cookies, storage and cache, like a new profile)
 * in the file's chromium, which starts once instead of once a browser. Every console error
 * or page error is recorded (with the URL of the resource it is about, when there is one).
 * `args` adds chromium switches (fake microphone, autoplay); `storageState` starts it with a
 * context's cookies and storage (Playwright's `context.storageState()`). `persistent`: a
 * chromium of its own on a profile directory instead, for what a context of the shared one
 * cannot be (chromium calls such a context incognito, and an incognito page not installable). */
export async function openBrowser({ width = 1280, height = 800, colorScheme, args = [], storageState, persistent = false } = {}) {
  const options = { viewport: { width, height }, ...(colorScheme ? { colorScheme } : {}) };
  let context;
  let profile;
  if (persistent) {
    if (storageState) throw new Error('openBrowser: storageState is for the shared chromium');
    profile = mkdtempSync(join(tmpdir(), 'encore-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args], ...options });
  } else {
    context = await (await sharedChromium(args)).newContext({ ...options, ...(storageState ? { storageState } : {}) });
  }
  const errors = [];
  // Console warnings (React Router's, React's): kept apart, for the tests that forbid them.
  const warnings = [];
  const watch = (page) => {
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(`${page.url()} console: ${message.text()}`);
      if (message.type() !== 'error') return;
      const source = message.location()?.url;
      const about = source && source !== page.url() ? ` (${source})` : '';
      errors.push(`${page.url()} console: ${message.text()}${about}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()} page error: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    errors,
    warnings,
    async close() {
      await context.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Viewport shots: the shell's header and sidebar are fixed, which full-page shots distort.
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

export async function signIn(page, url, email, password) {
  await page.goto(`${url}/auth/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Signs in through the OAuth endpoints (PKCE, as the web app does) and returns a caller
 * `api(method, path, body)` → `{ status, json }` with that account's bearer token. */
export async function apiSession(url, email, password) {
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const basic = `Basic ${Buffer.from('encore-web:').toString('base64')}`;
  const state = randomBytes(16).toString('hex');
  const form = async (path, fields) => {
    const response = await fetch(`${url}/api/v1/oauth2${path}`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify(fields),
    });
    const json = await response.json();
    if (!response.ok || !json.success) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.payload;
  };
  const redirect = `${url}/auth/callback`;
  const { code } = await form('/authorize', {
    email, password, response_type: 'code', response_mode: 'query', scope: 'openid profile email',
    redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', client_id: 'encore-web',
    state, nonce: randomBytes(16).toString('hex'),
  });
  const token = await form('/token', { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier, client_id: 'encore-web', state });
  // `body`: JSON, or a FormData sent as multipart (uploads).
  return async (method, path, body) => {
    const multipart = body instanceof FormData;
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token.access_token}`, ...(body === undefined || multipart ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json = null;
    try { json = JSON.parse(text); } catch { json = text; }
    return { status: response.status, json, headers: response.headers };
  };
}

/** The frame every test file shares: one server for the file, seeded with `accounts` (an
 * object of them, as `cast` makes), and browsers (with `browserDefaults`) that are all closed
 * after it. Registers before/after. */
export function e2eSuite(accounts, browserDefaults = {}) {
  const browsers = [];
  /** `browserAs` with `reuse`: each account's cookies and storage after its sign-in. */
  const savedSessions = new Map();
  let started;
  let failed;
  const suite = {
    /** Set once `before` has run. */
    server: null,
    /** Resolves to the server once it answers. Node 20 does not wait for one top-level
     * `before` before starting the next, so a file's own setup awaits this. */
    ready: new Promise((resolve, reject) => {
      started = resolve;
      failed = reject;
    }),
    async browser(options) {
      const opened = await openBrowser({ ...browserDefaults, ...options });
      browsers.push(opened);
      return opened;
    },
    /** Closes the browser and fails the test on any console error it saw (except the ones
     * a test provokes on purpose, listed in `allow`). */
    async finish(opened, allow = []) {
      await opened.close();
      const unexpected = opened.errors.filter((error) => !allow.some((pattern) => pattern.test(error)));
      assert.deepEqual(unexpected, [], 'the browser logged errors');
    },
    /** Signs in through the login page and waits for the dashboard. */
    async signInAs(page, account) {
      await signIn(page, suite.server.url, account.email, account.password);
      await page.waitForURL(/\/dashboard$/);
      await page.getByTestId('account-summary').waitFor();
    },
    /** A new browser signed in as `account`; `prepare(page)` runs first, before anything
     * loads. It signs in through the login page; with `reuse`, only the first for the account
     * in this file does, and the later ones start with the cookies and storage that sign-in
     * left (the account back on a device it signed in on) on a blank page. */
    async browserAs(account, { prepare, reuse = false, ...options } = {}) {
      const saved = reuse ? savedSessions.get(account.email) : undefined;
      const opened = await suite.browser({ ...options, ...(saved ? { storageState: saved } : {}) });
      await prepare?.(opened.page);
      if (!saved) {
        await suite.signInAs(opened.page, account);
        if (reuse) savedSessions.set(account.email, await opened.context.storageState());
      }
      return opened;
    },
    /** Once the server answers: an API session of `account` (an admin) and a published
     * concert it made, titled `title`, starting in `inDays` days. */
    async adminWithConcert(account, title, { inDays = 3 } = {}) {
      await suite.ready;
      const admin = await apiSession(suite.server.url, account.email, account.password);
      const concert = await createConcert(admin, title, { startsAt: new Date(Date.now() + inDays * 86_400_000) });
      return { admin, concert };
    },
    /** Inside a describe: one browser signed in as `account` (then on `path`) for all its
     * tests, closed after them and checked like `finish`. The holder's `page` is set by then. */
    signedIn(account, { path, allow = [], ...options } = {}) {
      const held = { browser: null, page: null };
      before(async () => {
        held.browser = await suite.browser(options);
        held.page = held.browser.page;
        await suite.signInAs(held.page, account);
        if (path) await held.page.goto(`${suite.server.url}${path}`);
      });
      after(async () => {
        await suite.finish(held.browser, allow);
      });
      return held;
    },
  };
  // Nobody may await `ready` when the start fails: keep that rejection from going unhandled.
  suite.ready.catch(() => undefined);
  before(async () => {
    try {
      suite.server = await startServer(Object.values(accounts));
      started(suite.server);
    } catch (error) {
      failed(error);
      throw error;
    }
  });
  after(async () => {
    for (const opened of browsers) await opened.close().catch(() => undefined);
    await suite.server?.stop();
  });
  return suite;
}

/** Calls the API from the page with its signed-in session, as the app does. */
/**
 * Controls inside `selector` a screen reader could not name: buttons, links, inputs and
 * menus with no text, no aria-label, no labelling element and no title (an icon alone).
 * Returns one line per control, to assert empty.
 */
export function unnamedControls(page, selector) {
  return page.evaluate((within) => {
    const named = (element) => {
      if ((element.getAttribute('aria-label') ?? '').trim()) return true;
      const by = element.getAttribute('aria-labelledby');
      if (by && by.split(/\s+/).some((id) => (document.getElementById(id)?.textContent ?? '').trim())) return true;
      if ((element.getAttribute('title') ?? '').trim()) return true;
      if ('labels' in element && element.labels && [...element.labels].some((label) => label.textContent.trim())) return true;
      if (element.tagName === 'INPUT' && ['submit', 'button'].includes(element.type) && element.value.trim()) return true;
      if (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return false;
      const text = (element.innerText ?? element.textContent ?? '').trim();
      return text.length > 0 || [...element.querySelectorAll('img[alt]')].some((img) => img.alt.trim());
    };
    const out = [];
    const controls = document.querySelectorAll(
      `${within} :is(button, a[href], [role="button"], [role="switch"], [role="checkbox"], [role="menuitem"], input:not([type="hidden"]), textarea, select)`,
    );
    for (const element of controls) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown
      if (!named(element)) out.push(`${element.tagName.toLowerCase()}[${element.getAttribute('data-testid') ?? String(element.className).split(' ')[0]}]`);
    }
    return out;
  }, selector);
}

/** A page that reads Persian from its first load (the app keeps the reader's choice). */
export const inPersian = (page) =>
  page.addInitScript(() => {
    localStorage.setItem('language', 'ir');
  });

/** The page's fonts loaded and its layout settled: before measuring it or taking its picture. */
export async function settle(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.waitForTimeout(300);
}

/** Measured in the page (`page.evaluate(layoutProblems, { minTap })`): what overlaps, leaves
 * the viewport, is cut, or (with `minTap`, on a phone) is too small to tap; one line each. */
export function layoutProblems({ minTap }) {
  const problems = [];
  const vw = document.documentElement.clientWidth;
  const CONTROL = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], [role="switch"], [role="slider"]';
  const name = (el) => {
    const id = el.getAttribute('data-testid');
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''} "${text}"`;
  };
  const shown = (el) => {
    if (el.closest('[aria-hidden="true"], [hidden]')) return false;
    // A closed <details> shows its summary only (its content keeps a box in chromium).
    if (el.closest('details:not([open]) > :not(summary)')) return false;
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
    }
    const rect = el.getBoundingClientRect();
    // Visually hidden (screen-reader) text is a pixel wide.
    return rect.width > 2 && rect.height > 2;
  };
  /** The fixed or sticky bar an element rides on (content scrolls under those by design). */
  const layer = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const position = getComputedStyle(node).position;
      if (position === 'fixed' || position === 'sticky') return node;
    }
    return document.body;
  };
  const ownText = (el) => [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());

  const controls = [...document.querySelectorAll(CONTROL)].filter(shown);
  // A control's label, icon and text are the control; a text outside any control is its own item.
  const texts = [...document.querySelectorAll('body *')].filter((el) => ownText(el) && !el.closest(CONTROL) && shown(el));
  const items = [...controls.filter((el) => !el.parentElement?.closest(CONTROL)), ...texts].map((el) => ({ el, rect: el.getBoundingClientRect(), layer: layer(el) }));

  if (document.documentElement.scrollWidth > vw + 1) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${vw} px`);

  for (const { el, rect } of items) {
    // Off-canvas (the closed menu drawer) is not on the page.
    if (rect.right <= 0 || rect.left >= vw) continue;
    if (rect.left < -1 || rect.right > vw + 1) problems.push(`${name(el)} leaves the viewport: ${Math.round(rect.left)}–${Math.round(rect.right)} of ${vw}`);
  }

  // Overlaps, within one layer (the page, or one fixed bar), between items neither of which holds the other.
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i];
      const b = items[j];
      if (a.layer !== b.layer || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      // By design: a count badge on its button, an input's own buttons (show the password).
      if (a.el.closest('.mantine-Indicator-indicator') || b.el.closest('.mantine-Indicator-indicator')) continue;
      const field = a.el.closest('.mantine-Input-wrapper');
      if (field && field === b.el.closest('.mantine-Input-wrapper')) continue;
      const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      if (width > 2 && height > 2) problems.push(`${name(a.el)} overlaps ${name(b.el)} by ${Math.round(width)}×${Math.round(height)}`);
    }
  }

  // Cut: a button's label never; a text cut to an ellipsis keeps room for a few words.
  for (const el of document.querySelectorAll('body *')) {
    if (!ownText(el) || !shown(el)) continue;
    const cut = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    const style = getComputedStyle(el);
    const clipping = style.overflow !== 'visible' || style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none';
    if (!cut || !clipping) continue;
    const control = el.closest(CONTROL);
    if (control && !control.matches('a[href]:not([role])')) problems.push(`${name(control)}'s label is cut`);
    else if (el.getBoundingClientRect().width < 96) problems.push(`${name(el)} is squeezed to ${Math.round(el.getBoundingClientRect().width)} px`);
  }

  if (minTap) {
    for (const el of controls) {
      if (el.parentElement?.closest(CONTROL)) continue;
      // A link inside a sentence is exempt (WCAG 2.5.5, inline), as are the inputs that a
      // larger label or control stands for (checkboxes, radios, the slider's range).
      if (el.matches('a[href]') && [...el.parentElement.childNodes].some((n) => n !== el && n.nodeType === Node.TEXT_NODE && n.textContent.trim())) continue;
      if (el.matches('input[type="checkbox"], input[type="radio"], input[type="range"], input[type="file"]')) continue;
      // A field's tap area is its whole box (a password field's input sits inside it).
      // A slider's is its track, not the handle.
      const area = el.matches('input, textarea, select') ? el.closest('.mantine-Input-input') : el.matches('[role="slider"]') ? el.closest('.mantine-Slider-root') : null;
      const rect = (area ?? el).getBoundingClientRect();
      if (rect.right <= 0 || rect.left >= vw) continue;
      if (rect.width < minTap - 0.5 || rect.height < minTap - 0.5) problems.push(`${name(el)} is ${Math.round(rect.width)}×${Math.round(rect.height)} px to tap`);
    }
  }
  return [...new Set(problems)];
}

/** In the page (Persian): the shown texts with a Latin digit, or with a Latin comma beside
 * Persian digits (a date or time joined as the root locale does), less what is typed or read
 * as code (inputs, versions, ids set left to right). Every number goes through the one number
 * formatter, badges' counts too, and every date through the one date formatter. */
export function latinDigits() {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const latin = /[0-9]/.test(node.textContent) || (/[۰-۹]/.test(node.textContent) && node.textContent.includes(','));
    if (!latin || !parent || parent.closest('code, [dir="ltr"], input, textarea, [aria-hidden="true"]')) continue;
    const box = parent.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) out.push(node.textContent.trim().slice(0, 60));
  }
  return out;
}

export const pageApi = (page, method, path, body) =>
  page.evaluate(
    async ([m, p, b]) => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('encore_access_token='))?.split('=')[1];
      const response = await fetch(p, {
        method: m,
        headers: { Authorization: `Bearer ${decodeURIComponent(token ?? '')}`, 'Content-Type': 'application/json' },
        body: b ? JSON.stringify(b) : undefined,
      });
      return { status: response.status, json: await response.json() };
    },
    [method, path, body],
  );

/** Checks out the cart of an `apiSession` and pays on the test provider with a card that
 * succeeds; returns the payment's answer. */
export async function payCart(session, name) {
  const checkout = await session('POST', '/api/v1/cart/checkout');
  const payUrl = new URL(checkout.json.payload);
  const orderId = payUrl.pathname.split('/').at(-1);
  return session('POST', `/api/v1/payments/test/${orderId}`, {
    token: payUrl.searchParams.get('token'), cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name,
  });
}

/** `session` (an `apiSession`) puts `concert` in its cart and pays for it as `name` with a
 * card that succeeds: the ticket is theirs. */
export async function buyTicket(session, concert, name) {
  assert.equal((await session('POST', `/api/v1/cart/${concert.id}`)).status, 200);
  const paid = await payCart(session, name);
  assert.equal(paid.json.payload?.status, 'fulfilled', JSON.stringify(paid.json));
}

/** The super admin `sa` gives `account` a new picture `times` times, through the API: a
 * notification each for `account` ("… changed your profile picture"). */
export async function changePictures(url, sa, account, times = 1) {
  const owner = await apiSession(url, sa.email, sa.password);
  const users = await owner('GET', '/api/v1/accounts?page=1&pageSize=100');
  const target = users.json.payload.items.find((user) => user.login === account.email);
  assert.ok(target, `${account.email} is listed`);
  for (let i = 0; i < times; i++) {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
    const uploaded = await owner('POST', `/api/v1/accounts/${target.id}/avatar`, form);
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.json));
  }
}

/** The claim link of the newest gift e-mail to `to` in `server`'s outbox (sending is
 * asynchronous: waited for). */
export async function claimLink(server, to) {
  let link;
  await waitUntil(
    () => {
      const mail = server.outbox().filter((m) => m.to === to && m.channel === 'email').at(-1);
      link = /https?:\/\/\S+\/claim\?token=[\w-]+/.exec(mail?.body ?? '')?.[0];
      return Boolean(link);
    },
    { message: `a claim link mailed to ${to}` },
  );
  return link;
}

/** On a claim page signed out: signs up through its link as `name` (the e-mail the gift
 * went to filled in, checked), signs in, and claims the ticket; `beforeSubmit(page)` runs with
 * the sign-up form filled. */
export async function signUpAndClaim(page, { name, email, beforeSubmit }) {
  await page.getByTestId('claim-sign-up').click();
  await page.locator('input[name="fullname"]').fill(name);
  assert.equal(await page.locator('input[name="email"]').inputValue(), email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
  await beforeSubmit?.(page);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/auth\/login/);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/claim\?token=/);
  await page.getByTestId('claim-submit').click();
  await page.getByTestId('claim-done').waitFor();
}

/** A published concert in its own project, made through the `admin` API session, starting at
 * `startsAt`, with its stream key rotated (keys are stored hashed and answered once). */
export async function createConcert(admin, title, { startsAt = new Date() } = {}) {
  const project = await admin('POST', '/api/v1/projects', { name: `${title} band` });
  assert.equal(project.status, 201, JSON.stringify(project.json));
  const created = await admin('POST', '/api/v1/events', {
    projectId: project.json.payload.id,
    title,
    artistName: `${title} band`,
    startsAt: startsAt.toISOString(),
    durationMinutes: 60,
    price: 900,
    currency: 'EUR',
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.payload.id;
  assert.equal((await admin('POST', `/api/v1/events/${id}/publish`)).status, 200);
  const key = await admin('POST', `/api/v1/events/${id}/stream-key/rotate`);
  return { id, key: key.json.payload.streamKey };
}

/** Writes a minute of a sine tone as ADTS AAC to `path`, the audio `encore push` sends. */
export function writeSine(path, frequency) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=48000:duration=60`, '-c:a', 'aac', '-b:a', '96k', '-f', 'adts', path]);
}

/** A minute of a sine tone at `frequency` Hz (see `writeSine`) in a folder of its own: its
 * `path`, and `remove()` to delete the folder once the file's tests are done. */
export function sineFile(frequency) {
  const dir = mkdtempSync(join(tmpdir(), 'encore-sine-'));
  const path = join(dir, 'sine.aac');
  writeSine(path, frequency);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a PNG of a colour gradient to `path` (960×720 unless `gradient`, an ffmpeg
 * `gradients` source, says otherwise): a picture that looks like one in screenshots, for
 * image uploads. */
export function writePicture(path, gradient = 'gradients=s=960x720:c0=0x0a2d73:c1=0xf06595:x0=0:y0=0:x1=960:y1=720') {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', gradient, '-frames:v', '1', path]);
}

/** Uploads the PNG at `path` to `target` (`/api/v1/events/{id}/image` or a project's) as a
 * manager's client sends it, multipart with the field `file`; asserts 200 and answers the
 * response. */
export async function uploadPicture(session, target, path) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(path)], { type: 'image/png' }), basename(path));
  const uploaded = await session('POST', target, form);
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.json));
  return uploaded;
}

/** What the player's and the stage's tests start from: a published concert titled `title` with
 * its picture (`writePicture`'s, or `gradient`), a ticket `accounts.fan` holds, and a minute of a
 * sine at `frequency` to push, in a new folder `workDir` (the caller removes it). Answers the
 * admin's API session, the concert, `workDir` and the audio file. */
export async function aPicturedConcertWithAHolder(suite, accounts, { title, frequency, gradient }) {
  const admin = await apiSession(suite.server.url, accounts.admin.email, PASSWORD);
  const fan = await apiSession(suite.server.url, accounts.fan.email, PASSWORD);
  const workDir = mkdtempSync(join(tmpdir(), 'encore-e2e-'));
  const audioFile = join(workDir, 'sine.aac');
  writeSine(audioFile, frequency);
  const concert = await createConcert(admin, title);
  const poster = join(workDir, 'poster.png');
  writePicture(poster, gradient);
  await uploadPicture(admin, `/api/v1/events/${concert.id}/image`, poster);
  await buyTicket(fan, concert, fullName(accounts.fan));
  return { admin, concert, workDir, audioFile };
}

/** `encore push` of `audioFile` to `concert`, paced in real time, looping; `exited` resolves
 * with its exit code and what it wrote to stderr. */
export function startPush(serverUrl, audioFile, concert) {
  const child = spawn(
    process.env.ENCORE_BIN,
    ['push', audioFile, '--event', concert.id, '--key', concert.key, '--server', serverUrl, '--repeat', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.exited = new Promise((resolveExit) => {
    child.on('exit', (code) => resolveExit({ code, stderr }));
  });
  return child;
}

/** A live Ogg FLAC encoder (ffmpeg) sending to `concert` as to an Icecast server: real
 * time, a 20 s tone at `frequency` Hz looping (written into `dir`), an Ogg page per
 * 4,096-sample FLAC block. Kill the child to stop it. */
export function startOggFlacPush(serverUrl, concert, dir, frequency = 523) {
  const wav = join(dir, `tone-${frequency}.wav`);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=48000:duration=20`, '-ac', '2', '-c:a', 'pcm_s16le', wav]);
  const target = new URL(`/live/${concert.id}`, serverUrl);
  target.username = 'source';
  target.password = concert.key;
  return spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', wav,
    '-c:a', 'flac', '-frame_size', '4096', '-f', 'ogg', '-page_duration', '1000', '-flush_packets', '1',
    '-content_type', 'application/ogg', '-method', 'PUT', '-auth_type', 'basic', target.href,
  ], { stdio: 'ignore' });
}

/** A date as a datetime-local input wants it (local time, minutes). */
export function localInput(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The `content` of a `<meta property|name=…>` tag, its HTML entities decoded. */
export function meta(html, key) {
  const tag = html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`));
  if (!tag) return null;
  return tag[1]
    .replaceAll('&#x2f;', '/')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** A 1×1 PNG, for image uploads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Opens Manage events, then the editor `item` (a menu entry's test id, e.g. 'manage-tiers')
 * from the menu of the concert titled `title`; the drawer's panel (test id `panel`) once
 * its first row (test id `firstRow`) is shown. */
export async function openManageDrawer(page, url, title, { item, panel, firstRow }) {
  await page.goto(`${url}/manage-events`);
  const row = page.getByTestId('manage-row').filter({ hasText: title });
  await row.waitFor();
  await row.locator('button[aria-haspopup="menu"]').click();
  await page.getByTestId(item).click();
  const drawer = page.getByTestId(panel);
  await drawer.getByTestId(firstRow).first().waitFor();
  return drawer;
}

/** The tier editor of the concert titled `title` (Manage events → ⋯ → Ticket tiers). */
export const openTiers = (page, url, title) =>
  openManageDrawer(page, url, title, { item: 'manage-tiers', panel: 'tiers-panel', firstRow: 'tier-row' });

