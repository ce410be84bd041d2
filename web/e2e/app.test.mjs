// End-to-end: the dashboard in Debian's chromium against the real encore binary.
// Run with `npm run e2e` after `npm run build`; ENCORE_BIN points at the server binary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiSession, cast, e2eSuite, fullName, literally, pageApi, PASSWORD, person, PNG, screenshot, signIn, waitUntil } from './harness.mjs';

const ACCOUNTS = cast({
  sa: 'sasha',
  admin: 'ada',
  user: 'fiona',
  mfa: person('mfa@example.com', 'Max', 'Factor', { phone: '+15550100123' }),
  enrol: person('enrol@example.com', 'Enzo', 'Rol', { phone: '+15550100888' }),
  prefs: 'ann',
  // Chooses Persian and the light theme: they follow the account to its other devices.
  switcher: 'sara',
  // Reloads the page the moment a choice is made: the account keeps it all the same.
  reloader: 'ben',
});

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

async function smsCode(page, to, since) {
  for (let i = 0; i < 50; i++) {
    const sms = suite.server
      .outbox()
      .slice(since)
      .reverse()
      .find((line) => line.channel === 'sms' && line.to.replace(/\s/g, '') === to);
    const code = sms ? /\b(\d{6})\b/.exec(sms.body)?.[1] : undefined;
    if (code) return code;
    await page.waitForTimeout(100);
  }
  throw new Error(`no SMS code for ${to} in the outbox`);
}

const lastMail = (to) =>
  suite.server
    .outbox()
    .filter((line) => line.channel === 'email' && line.to === to)
    .at(-1);

const linkIn = (body) => /https?:\/\/\S+\/auth\/recover-password\?\S+/.exec(body)?.[0];

/** The first link to `path` (e.g. /auth/login) in an e-mail body. */
const linkTo = (body, path) => new RegExp(`https?://\\S+${path}\\?\\S+`).exec(body)?.[0];

/** Step-up: the dialog asking for the current password before a sensitive change. */
async function confirmWithPassword(page, password) {
  await page.getByTestId('step-up-password').fill(password);
  await page.getByTestId('step-up-submit').click();
  await page.getByTestId('step-up-submit').waitFor({ state: 'detached' });
}

async function waitForMail(page, to, since) {
  for (let i = 0; i < 50; i++) {
    const mail = suite.server
      .outbox()
      .slice(since)
      .filter((line) => line.channel === 'email' && line.to === to)
      .at(-1);
    if (mail) return mail;
    await page.waitForTimeout(100);
  }
  throw new Error(`no e-mail to ${to} in the outbox`);
}

describe('Encore dashboard', () => {
  test('sign up → sign in → dashboard', async () => {
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/auth/signup`);
    await page.locator('input[name="fullname"]').fill('Nina New');
    await page.locator('input[name="email"]').fill('Nina.New@Example.com');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/auth\/login(\?email=[^&]*)?$/);
    // The e-mail is lower-cased before sending: type it in another case.
    await signIn(page, suite.server.url, 'NINA.NEW@example.com', PASSWORD);
    await page.waitForURL(/\/dashboard$/);
    const summary = page.getByTestId('account-summary');
    await summary.waitFor();
    assert.match(await summary.innerText(), /Nina New/);
    assert.match(await summary.innerText(), /nina\.new@example\.com/);
    await finish(b);
  });

  test('signing up twice with the same e-mail says "User already exists"', async () => {
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/auth/signup`);
    await page.locator('input[name="fullname"]').fill('Nina Again');
    await page.locator('input[name="email"]').fill('nina.new@example.com');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
    await page.getByTestId('signup-submit').click();
    assert.equal(await page.getByTestId('signup-error').innerText(), 'User already exists');
    await finish(b, [/status of 409/]);
  });

  test('a 401 from the server logs out and goes to the login page', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    // The session is revoked on the server side (here: the token is replaced by a forged one).
    await b.context.addCookies([{ name: 'encore_access_token', value: 'forged.token.value', url: suite.server.url }]);
    await b.context.clearCookies({ name: 'encore_refresh' });
    await page.goto(`${suite.server.url}/preferences`);
    await page.waitForURL(/\/auth\/login/);
    // Only the device cookie stays: this browser is still a known device of the account.
    const left = (await b.context.cookies()).filter((cookie) => cookie.name.startsWith('encore_'));
    assert.deepEqual(left.map((cookie) => [cookie.name, cookie.httpOnly]), [['encore_device', true]]);
    await finish(b, [/status of 401/]);
  });

  test('sign in with the second factor, using the code from the outbox', async () => {
    const b = await browser();
    const { page } = b;
    const before = suite.server.outbox().length;
    await signIn(page, suite.server.url, ACCOUNTS.mfa.email, ACCOUNTS.mfa.password);
    await page.getByTestId('mfa-step').waitFor();
    let sms;
    for (let i = 0; i < 50 && !sms; i++) {
      sms = suite.server
        .outbox()
        .slice(before)
        .reverse()
        .find((line) => line.channel === 'sms' && line.to.replace(/\s/g, '') === ACCOUNTS.mfa.phone);
      if (!sms) await page.waitForTimeout(100);
    }
    assert.ok(sms, 'an SMS with the code reached the outbox');
    const code = /\b(\d{6})\b/.exec(sms.body)?.[1];
    assert.ok(code, `the SMS has a 6-digit code: ${sms.body}`);
    await page.getByTestId('mfa-step').locator('input').first().click();
    await page.keyboard.type(code);
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('account-summary').waitFor();
    await finish(b);
  });

  test('a removed phone is re-enrolled only through the link e-mailed to the account', async () => {
    // Two-step verification goes on only with a phone: the admin cannot turn it on for a
    // user without one.
    const admin = await browser();
    await signInAs(admin.page, ACCOUNTS.admin);
    await admin.page.goto(`${suite.server.url}/users`);
    await admin.page.getByTestId('user-search').fill(ACCOUNTS.user.email);
    await admin.page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    assert.equal(await admin.page.getByTestId('user-row').locator('input[type="checkbox"]').nth(1).isDisabled(), true);
    await finish(admin);

    // The owner (signed in with the SMS code) removes the phone, with the password; two-step
    // verification stays on.
    const b = await browser();
    const { page } = b;
    const enrol = ACCOUNTS.enrol;
    let since = suite.server.outbox().length;
    await signIn(page, suite.server.url, enrol.email, enrol.password);
    await page.getByTestId('mfa-step').waitFor();
    let code = await smsCode(page, enrol.phone, since);
    await page.getByTestId('mfa-step').locator('input').first().click();
    await page.keyboard.type(code);
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${suite.server.url}/preferences`);
    await page.getByRole('button', { name: 'Remove phone' }).click();
    await confirmWithPassword(page, enrol.password);
    await page.getByText('Your phone number was removed.').waitFor();
    await page.getByText('Two-step verification is on but no phone is set.', { exact: false }).waitFor();
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL(/\/auth\/login$/);

    // The password alone does not enrol a phone: the owner's mailbox gets a link.
    await signIn(page, suite.server.url, enrol.email, enrol.password);
    await page.getByTestId('mfa-step').locator('input[name="phone"]').fill('+15550100999');
    since = suite.server.outbox().length;
    await page.getByRole('button', { name: 'Send the code' }).click();
    await page.getByTestId('mfa-associate-error').waitFor();
    assert.match(await page.getByTestId('mfa-associate-error').innerText(), /open the link we have just e-mailed/);
    const mail = await waitForMail(page, enrol.email, since);
    const link = linkTo(mail.body, '/auth/login');
    assert.ok(link, `the e-mail has an enrolment link: ${mail.body}`);
    assert.equal(suite.server.outbox().slice(since).filter((line) => line.channel === 'sms').length, 0, 'no SMS to that phone');

    // The link brings the owner back to sign in; that sign-in enrols the phone.
    await page.goto(link);
    await page.locator('input[name="email"]').fill(enrol.email);
    await page.locator('input[name="password"]').fill(enrol.password);
    await page.getByTestId('login-submit').click();
    await page.getByText('Add the mobile phone number that will receive your sign-in codes.', { exact: false }).waitFor();
    await page.getByTestId('mfa-step').locator('input[name="phone"]').fill('+15550100999');
    since = suite.server.outbox().length;
    await page.getByRole('button', { name: 'Send the code' }).click();
    code = await smsCode(page, '+15550100999', since);
    await page.getByTestId('mfa-step').locator('input').first().click();
    await page.keyboard.type(code);
    await page.getByTestId('mfa-submit').click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('account-summary').waitFor();
    await finish(b, [/status of 403/]);
  });

  test('a user opening /users lands on /403', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    assert.equal(await page.locator('[data-menu-key="users"]').count(), 0, 'no Users entry in the menu');
    await page.goto(`${suite.server.url}/users`);
    await page.waitForURL(/\/403$/);
    await page.getByTestId('forbidden-title').waitFor();
    await finish(b);
  });

  test('an admin creates a user and finds them by search', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.locator('[data-menu-key="users"]').click();
    await page.waitForURL(/\/users$/);
    await page.getByTestId('users-table').waitFor();
    await page.getByTestId('user-create').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="fullname"]').fill('Grace Hopper');
    await dialog.locator('input[name="email"]').fill('grace@example.com');
    await dialog.getByTestId('user-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('user-search').fill('Grace');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    assert.match(await page.getByTestId('user-row').innerText(), /grace@example\.com/);
    await page.getByTestId('user-search').fill('nobody-by-this-name');
    await page.getByTestId('users-empty').waitFor();
    assert.equal(await page.getByTestId('users-empty').innerText(), 'Items not found');
    // The invitation went out (the server sends its mail after answering, so it is awaited).
    await waitUntil(() => suite.server.outbox().some((line) => line.channel === 'email' && line.to === 'grace@example.com'), { timeout: 5_000, message: "Grace's invitation" });
    await finish(b);
  });

  test('an unknown path goes home; /404 shows its text', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    await page.goto(`${suite.server.url}/no/such/page`);
    await page.waitForURL(/\/home$/);
    await page.getByTestId('home-title').waitFor();
    await page.goto(`${suite.server.url}/404`);
    assert.equal(await page.getByTestId('not-found-title').innerText(), "This page's gone fishing.");
    await page.getByRole('link', { name: 'Back to dashboard' }).waitFor();
    // The cart comes from GET /api/v1/cart/: empty for this user, so no badge and an empty state.
    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('empty-state').waitFor();
    assert.equal(await page.getByTestId('cart-badge').locator('.mantine-Indicator-indicator').count(), 0);
    await finish(b);
  });

  test('switching to Persian mirrors the layout (dir="rtl") and is kept', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.switcher);
    await page.goto(`${suite.server.url}/settings`);
    await page.getByTestId('language-picker').click();
    await page.getByRole('option', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    assert.equal(await page.locator('html').getAttribute('lang'), 'fa-IR');
    await page.getByText('تنظیمات').first().waitFor();
    await screenshot(page, 'dark-settings-persian');
    await page.reload();
    await page.getByTestId('theme-control').waitFor();
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    await finish(b);
  });

  test('the theme choice survives a reload', async () => {
    const b = await browser();
    const { page } = b;
    await page.addInitScript(() => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', 'gb');
    });
    await signInAs(page, ACCOUNTS.switcher);
    assert.equal(await page.locator('html').getAttribute('data-mantine-color-scheme'), 'dark', 'dark by default');
    await page.goto(`${suite.server.url}/settings`);
    await page.getByTestId('theme-control').getByText('Light').click();
    await page.waitForFunction(() => document.documentElement.dataset.mantineColorScheme === 'light');
    assert.equal(await page.evaluate(() => localStorage.getItem('theme-preset')), 'light');
    await page.reload();
    await page.getByTestId('theme-control').waitFor();
    assert.equal(await page.locator('html').getAttribute('data-mantine-color-scheme'), 'light');
    await finish(b);
  });

  test('a language and a theme chosen in settings reach the account even when the page is reloaded at once', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.reloader);
    await page.goto(`${suite.server.url}/settings`);
    await page.getByTestId('language-picker').click();
    await page.getByRole('option', { name: 'فارسی' }).click();
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.getByTestId('theme-control').getByText('روشن').click();
    await page.reload();
    await page.getByTestId('theme-control').waitFor();
    assert.equal(await page.locator('html').getAttribute('data-mantine-color-scheme'), 'light');
    const account = await apiSession(suite.server.url, ACCOUNTS.reloader.email, ACCOUNTS.reloader.password);
    let me;
    for (let i = 0; i < 20; i++) {
      me = (await account('GET', '/api/v1/accounts/userinfo/me')).json.payload[0];
      if (me.language === 'ir' && me.theme === 'light') break;
      await page.waitForTimeout(100);
    }
    assert.deepEqual({ language: me.language, theme: me.theme }, { language: 'ir', theme: 'light' });
    await finish(b);
  });

  test('Persian and the light theme, chosen on one device, follow the account to a new one; a device with its own keeps it', async () => {
    // The account holds Persian and light, as the tests above chose them on their devices
    // (said here, not left to their saves, which a reload or a closed browser may cut).
    const account = await apiSession(suite.server.url, ACCOUNTS.switcher.email, ACCOUNTS.switcher.password);
    const me = (await account('GET', '/api/v1/accounts/userinfo/me')).json.payload[0];
    assert.equal((await account('PUT', `/api/v1/accounts/${me.id}`, { language: 'ir', theme: 'light' })).status, 200);
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.switcher);
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.waitForFunction(() => document.documentElement.dataset.mantineColorScheme === 'light');
    assert.equal(await page.locator('html').getAttribute('lang'), 'fa-IR');
    assert.equal(await page.evaluate(() => localStorage.getItem('theme-preset')), 'light');
    await page.getByText('داشبورد').first().waitFor();
    await finish(b);

    // A device where English and dark were chosen before keeps them.
    const own = await browser();
    await own.page.addInitScript(() => {
      localStorage.setItem('language', 'gb');
      localStorage.setItem('theme-preset', 'dark');
    });
    await signInAs(own.page, ACCOUNTS.switcher);
    assert.equal(await own.page.locator('html').getAttribute('dir'), 'ltr');
    assert.equal(await own.page.locator('html').getAttribute('data-mantine-color-scheme'), 'dark');
    await finish(own);
  });

  test('the navigation layout can move the menu to the top bar, and stays so', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/settings`);
    await page.getByTestId('layout-control').getByText('Top bar').click();
    const topUsers = page.locator('header [data-menu-key="users"]');
    await topUsers.waitFor();
    await page.reload();
    await topUsers.waitFor();
    const sidebar = await page.getByTestId('sidebar').boundingBox();
    assert.ok(!sidebar || sidebar.x + sidebar.width <= 0, `no sidebar in the top-bar layout: ${JSON.stringify(sidebar)}`);
    await topUsers.click();
    await page.waitForURL(/\/users$/);
    await screenshot(page, 'dark-top-bar-layout');
    await finish(b);
  });

  test('the sidebar collapses at 800 px width and opens full width', async () => {
    const wide = await browser({ width: 1280, height: 800 });
    await signInAs(wide.page, ACCOUNTS.admin);
    const wideBox = await wide.page.getByTestId('sidebar').boundingBox();
    assert.ok(wideBox && wideBox.x >= 0 && Math.round(wideBox.width) === 280, `280 px sidebar at 1280: ${JSON.stringify(wideBox)}`);
    await finish(wide);

    const narrow = await browser({ width: 800, height: 800 });
    const { page } = narrow;
    await signInAs(page, ACCOUNTS.admin);
    const collapsed = await page.getByTestId('sidebar').boundingBox();
    assert.ok(collapsed && collapsed.x + collapsed.width <= 0, `collapsed at 800: ${JSON.stringify(collapsed)}`);
    await page.getByTestId('burger').click();
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-testid="sidebar"]')?.getBoundingClientRect();
      return box !== undefined && box.x >= 0 && box.width > 0;
    });
    const opened = await page.getByTestId('sidebar').boundingBox();
    assert.equal(Math.round(opened?.width ?? 0), 800, 'full width when opened on a small screen');
    await finish(narrow);
  });

  test('QR sign-in: a signed-in device approves, the other one is signed in', async () => {
    const other = await browser();
    await other.page.goto(`${suite.server.url}/auth/login`);
    await other.page.getByTestId('qr-start').click();
    const panel = other.page.getByTestId('qr-panel');
    await panel.waitFor();
    const approveUrl = await panel.getAttribute('data-approve-url');
    assert.match(approveUrl ?? '', /\/auth\/qr\?id=/);
    await screenshot(other.page, 'dark-qr-sign-in');

    // The approving device is not signed in yet: it signs in, then comes back to the approval.
    const phone = await browser();
    await phone.page.goto(approveUrl);
    await phone.page.waitForURL(/\/auth\/login\?redirect=/);
    await phone.page.locator('input[name="email"]').fill(ACCOUNTS.user.email);
    await phone.page.locator('input[name="password"]').fill(ACCOUNTS.user.password);
    await phone.page.getByTestId('login-submit').click();
    await phone.page.getByText('Sign in on the other device?').waitFor();
    // It shows the asking device and address; the number shown there, and the password,
    // approve it.
    assert.match(await phone.page.getByTestId('qr-device').innerText(), /Mozilla|Chrom/);
    assert.equal(await phone.page.getByTestId('qr-place').innerText(), '127.0.0.1');
    const number = await other.page.getByTestId('qr-match-number').innerText();
    assert.match(number, /^\d{2}$/);
    await phone.page.getByTestId('qr-numbers').getByText(number, { exact: true }).click();
    await phone.page.getByTestId('qr-password').fill(ACCOUNTS.user.password);
    await phone.page.getByTestId('qr-approve').click();
    await phone.page.getByText('Sign-in approved').waitFor();

    await other.page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    assert.match(await other.page.getByTestId('account-summary').innerText(), new RegExp(literally(ACCOUNTS.user.email)));
    await finish(phone);
    await finish(other);
  });

  test('forgot password: check-your-email page, reset link from the outbox, sign in with the new one', async () => {
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/auth/lostpassword`);
    await page.locator('input[name="email"]').fill(ACCOUNTS.admin.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.waitForURL(/\/auth\/recover-password-email/);
    await page.getByText('Check your e-mail').waitFor();
    let link;
    for (let i = 0; i < 50 && !link; i++) {
      link = linkIn(lastMail(ACCOUNTS.admin.email)?.body ?? '');
      if (!link) await page.waitForTimeout(100);
    }
    assert.ok(link, 'a reset link reached the outbox');
    const newPassword = 'Another-e2e-Passw0rd';
    await page.goto(link);
    await page.locator('input[name="password"]').fill(newPassword);
    await page.locator('input[name="passwordCheck"]').fill(newPassword);
    await page.getByTestId('reset-submit').click();
    await page.waitForURL(/\/auth\/login$/);
    ACCOUNTS.admin.password = newPassword;
    await signInAs(page, ACCOUNTS.admin);
    await finish(b);
  });

  test('an invited user sets a password from the invitation and signs in', async () => {
    const b = await browser();
    const { page } = b;
    const mail = lastMail('grace@example.com');
    const link = linkIn(mail?.body ?? '');
    assert.ok(link && link.includes('invite=1'), `invitation link: ${mail?.body}`);
    await page.goto(link);
    await page.getByText('Welcome to Encore').waitFor();
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
    await page.getByTestId('reset-submit').click();
    await page.waitForURL(/\/auth\/login$/);
    await signInAs(page, { email: 'grace@example.com', password: PASSWORD });
    // The welcome message from the inviter waits in the notifications menu, unread.
    const badge = page.getByTestId('notifications-badge').locator('.mantine-Indicator-indicator');
    await badge.waitFor();
    assert.equal(await badge.innerText(), '1');
    await page.getByRole('button', { name: 'Open notifications' }).click();
    const item = page.locator('[data-read="false"]').filter({ hasText: 'Welcome to Encore' });
    await item.waitFor();
    assert.match(await item.innerText(), new RegExp(`From ${literally(fullName(ACCOUNTS.admin))}`));
    await item.click();
    await page.locator('[data-read="true"]').filter({ hasText: 'Welcome to Encore' }).waitFor();
    await badge.waitFor({ state: 'detached' });
    await finish(b);
  });

  test('staff read sign-ups on the Live page, and mark their own notifications all as read', async () => {
    // Their own: two new pictures of theirs (a sign-up is the staff's feed, not a notification).
    const sa = await apiSession(suite.server.url, ACCOUNTS.sa.email, ACCOUNTS.sa.password);
    const me = (await sa('GET', '/api/v1/accounts/userinfo/me')).json.payload[0];
    for (let i = 0; i < 2; i++) {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
      assert.equal((await sa('POST', `/api/v1/accounts/${me.id}/avatar`, form)).status, 200);
    }
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.sa);
    await page.goto(`${suite.server.url}/live`);
    await page.getByTestId('live-feed-item').and(page.locator('[data-kind="signup"]')).filter({ hasText: 'Nina New' }).waitFor();
    const badge = page.getByTestId('notifications-badge').locator('.mantine-Indicator-indicator');
    await badge.waitFor();
    await page.getByRole('button', { name: 'Open notifications' }).click();
    await page.locator('[data-read="false"]').filter({ hasText: 'Your new picture is in place.' }).first().waitFor();
    assert.equal(await page.locator('[data-read="false"]').filter({ hasText: 'signed up' }).count(), 0);
    await screenshot(page, 'dark-notifications');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await badge.waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-read="false"]').count(), 0);
    await finish(b);
  });

  test('avatar: an image is shown; a non-image is refused with "File type is incorrect"', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    await page.goto(`${suite.server.url}/preferences`);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('avatar-upload').click()]);
    await chooser.setFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.waitForFunction(() => [...document.querySelectorAll('img')].some((img) => img.src.startsWith('blob:')));
    // Named and typed as a PNG, but the content is text: the server checks the content.
    const [second] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('avatar-upload').click()]);
    await second.setFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await page.getByText('File type is incorrect').waitFor();
    await finish(b, [/status of 415/]);
  });

  test('logout signs out and goes to the login page', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL(/\/auth\/login$/);
    // The server cleared its HttpOnly refresh cookie; only the device cookie stays.
    const cookies = await b.context.cookies();
    const left = cookies.filter((cookie) => cookie.name.startsWith('encore_'));
    assert.deepEqual(left.map((cookie) => cookie.name), ['encore_device']);
    await page.goto(`${suite.server.url}/dashboard`);
    await page.waitForURL(/\/auth\/login\?redirect=%2Fdashboard$/);
    await finish(b);
  });

  test('the refresh token is an HttpOnly cookie script never sees; a reload without an access token refreshes through it', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    const refresh = (await b.context.cookies()).find((cookie) => cookie.name === 'encore_refresh');
    assert.ok(refresh, 'the server set the refresh cookie');
    assert.equal(refresh.httpOnly, true);
    assert.equal(refresh.sameSite, 'Strict');
    assert.equal(refresh.path, '/api/v1/oauth2');
    assert.equal(refresh.secure, true, 'Debian chromium keeps Secure cookies on http://127.0.0.1');
    const visible = await page.evaluate(() => document.cookie);
    assert.doesNotMatch(visible, /encore_refresh/);
    assert.match(visible, /encore_signed_in=1/);
    // The access token is gone (as when it expired): the reload signs in again through the cookie.
    // The dashboard's first requests settle first: one still in flight when the cookie goes
    // refreshes from this page, and a reload that cuts that refresh off spends the refresh
    // token before its successor reaches the browser (a known race, in docs/ci.md: failed
    // once in CI at f0fdb0c). This test is about the reload alone.
    await page.waitForLoadState('networkidle');
    await b.context.clearCookies({ name: 'encore_access_token' });
    await page.reload();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('account-summary').waitFor();
    const after = await b.context.cookies();
    assert.ok(after.some((cookie) => cookie.name === 'encore_access_token'), 'a fresh access token');
    const rotated = after.find((cookie) => cookie.name === 'encore_refresh');
    assert.ok(rotated && rotated.value !== refresh.value, 'the refresh cookie rotated');
    await finish(b);
  });

  describe('users admin (as sa)', () => {
    const held = suite.signedIn(ACCOUNTS.sa, { path: '/users' });
    /** Filters the list down to one row holding `text`, and returns it. */
    const search = async (text) => {
      const { page } = held;
      await page.getByTestId('user-search').fill(text);
      await page.waitForFunction(
        (needle) => {
          const rows = [...document.querySelectorAll('[data-testid="user-row"]')];
          return rows.length === 1 && rows[0].textContent.includes(needle);
        },
        text,
      );
      return page.getByTestId('user-row');
    };
    const mailsTo = (to) => suite.server.outbox().filter((line) => line.channel === 'email' && line.to === to).length;

    test('editing a user saves the full name and the role', async () => {
      const { page } = held;
      const row = await search('grace@');
      await row.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('input[name="fullname"]').fill('Grace Brewster Hopper');
      await dialog.getByTestId('user-role').click();
      await page.getByRole('option', { name: 'Admin', exact: true }).click();
      await dialog.getByTestId('user-form-submit').click();
      await dialog.waitFor({ state: 'hidden' });
      await row.getByText('Grace Brewster Hopper').waitFor();
      await row.getByText('Admin', { exact: true }).waitFor();
    });

    test('sending the invitation again e-mails a new one', async () => {
      const { page } = held;
      const row = await search('grace@');
      const invitations = mailsTo('grace@example.com');
      await row.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Send the invitation again' }).click();
      await page.getByText('A new invitation was sent.').waitFor();
      // Sent after the answer: awaited, not read at once (a loaded machine lags behind).
      await waitUntil(() => mailsTo('grace@example.com') > invitations, { timeout: 5_000, message: 'a new invitation e-mail' });
    });

    test('a disabled account shows under the "Disabled" filter', async () => {
      const { page } = held;
      const row = await search('grace@');
      await row.locator('.mantine-Switch-track').first().click();
      await page.getByText('Changes saved.').first().waitFor();
      await page.getByText('Disabled', { exact: true }).click();
      await row.getByText('grace@example.com').waitFor();
      await page.getByText('All', { exact: true }).click();
    });

    test('deleting a user asks for confirmation, then removes them', async () => {
      const { page } = held;
      const row = await search('nina.new@');
      await row.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByTestId('user-delete-confirm').click();
      await page.getByTestId('users-empty').waitFor();
    });
  });

  describe('preferences', () => {
    const newPassword = 'Prefs-new-Passw0rd';
    const phone = '+15550100777';
    const held = suite.signedIn(ACCOUNTS.prefs, { path: '/preferences' });
    // Toasts (top-right, 5 s) cover the controls for a moment, as they would for a person.
    const toastsGone = () => held.page.waitForFunction(() => document.querySelectorAll('.mantine-Notification-root').length === 0, null, { timeout: 15_000 });

    test('the password changes with the current one and the new one twice', async () => {
      const { page } = held;
      await page.getByLabel('Current password').fill(ACCOUNTS.prefs.password);
      // The label ends with the required mark (" *", hidden from screen readers).
      await page.getByLabel(/^New password( \*)?$/).fill(newPassword);
      await page.getByLabel('Repeat the new password').fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Your password was changed.').waitFor();
      ACCOUNTS.prefs.password = newPassword;
    });

    test('a phone is enrolled with the code sent to it, after the current password', async () => {
      const { page } = held;
      const since = suite.server.outbox().length;
      await page.getByLabel('Mobile phone number').fill(phone);
      await page.getByRole('button', { name: 'Send a code' }).click();
      // Sensitive changes ask for the current password first.
      await confirmWithPassword(page, newPassword);
      const code = await smsCode(page, phone, since);
      await page.getByLabel('Code received by SMS').fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('button', { name: 'Remove phone' }).waitFor();
    });

    test('two-step verification turns on for an account with a phone', async () => {
      const { page } = held;
      await toastsGone();
      await page.locator('.mantine-Switch-root').filter({ hasText: 'Ask for a code when I sign in' }).locator('.mantine-Switch-track').click();
      await confirmWithPassword(page, newPassword);
      await page.getByText('Two-step verification was updated.').waitFor();
    });

    test('a new e-mail waits for the link sent to it, and the old address is told', async () => {
      const { page } = held;
      await toastsGone();
      const mailSince = suite.server.outbox().length;
      await page.locator('input[name="email"]').fill('prefs.new@example.com');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await confirmWithPassword(page, newPassword);
      await page.getByTestId('pending-email').waitFor();
      assert.match(await page.getByTestId('pending-email').innerText(), /prefs\.new@example\.com/);
      const notice = await waitForMail(page, ACCOUNTS.prefs.email, mailSince);
      assert.match(notice.body, /prefs\.new@example\.com/);
      const confirmation = await waitForMail(page, 'prefs.new@example.com', mailSince);
      const confirmLink = linkTo(confirmation.body, '/auth/confirm-email');
      assert.ok(confirmLink, `the e-mail has a confirmation link: ${confirmation.body}`);
      await page.goto(confirmLink);
      await page.getByTestId('confirm-email-done').waitFor();
      ACCOUNTS.prefs.email = 'prefs.new@example.com';
      await page.getByRole('link', { name: 'Back to preferences' }).click();
      await page.waitForURL(/\/preferences$/);
      assert.equal(await page.locator('input[name="email"]').inputValue(), 'prefs.new@example.com');
      assert.equal(await page.getByTestId('pending-email').count(), 0);
    });

    test('with two-step verification on, signing in asks for the code sent to the phone', async () => {
      const { page } = held;
      await page.getByTestId('profile-menu').click();
      await page.getByTestId('logout').click();
      await page.waitForURL(/\/auth\/login$/);
      const since = suite.server.outbox().length;
      await signIn(page, suite.server.url, ACCOUNTS.prefs.email, newPassword);
      await page.getByTestId('mfa-step').waitFor();
      const code = await smsCode(page, phone, since);
      await page.getByTestId('mfa-step').locator('input').first().click();
      await page.keyboard.type(code);
      await page.getByTestId('mfa-submit').click();
      await page.waitForURL(/\/dashboard$/);
    });
  });

  test('cart: the badge counts real entries, the page lists them with the total, remove empties it', async () => {
    const api = pageApi;

    const staff = await browser();
    await signInAs(staff.page, ACCOUNTS.sa);
    const project = await api(staff.page, 'POST', '/api/v1/projects', { name: 'The E2E Band' });
    assert.equal(project.status, 201, JSON.stringify(project.json));
    const startsAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const event = await api(staff.page, 'POST', '/api/v1/events', {
      projectId: project.json.payload.id,
      title: 'Live at the Harbour',
      artistName: 'The E2E Band',
      startsAt,
      price: 1999,
      currency: 'EUR',
    });
    assert.equal(event.status, 201, JSON.stringify(event.json));
    const published = await api(staff.page, 'POST', `/api/v1/events/${event.json.payload.id}/publish`);
    assert.equal(published.status, 200, JSON.stringify(published.json));
    await finish(staff);

    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.user);
    const added = await api(page, 'POST', `/api/v1/cart/${event.json.payload.id}`);
    assert.equal(added.status, 200, JSON.stringify(added.json));
    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('cart-entries').getByText('Live at the Harbour').waitFor();
    assert.equal(await page.getByTestId('cart-total').innerText(), '€19.99');
    const badge = page.getByTestId('cart-badge').locator('.mantine-Indicator-indicator');
    assert.equal(await badge.innerText(), '1');
    await screenshot(page, 'dark-cart');
    await page.getByRole('button', { name: 'Remove from the cart' }).click();
    await page.getByTestId('empty-state').waitFor();
    await badge.waitFor({ state: 'detached' });
    await finish(b);
  });

  test('screenshots of the main screens in each theme', async () => {
    for (const theme of ['dark', 'light']) {
      const b = await browser({ width: 1280, height: 960 });
      const { page } = b;
      await page.addInitScript((preset) => {
        localStorage.setItem('theme-preset', preset);
      }, theme);
      await page.goto(`${suite.server.url}/auth/login`);
      await page.getByTestId('login-submit').waitFor();
      await screenshot(page, `${theme}-login`);
      await signInAs(page, ACCOUNTS.sa);
      await page.getByTestId('signups-chart').waitFor();
      await screenshot(page, `${theme}-dashboard`);
      for (const [path, name, ready] of [
        ['/users', 'users', 'users-table'],
        ['/preferences', 'preferences', 'mfa-toggle'],
        ['/settings', 'settings', 'theme-control'],
        ['/about', 'about', 'about-version'],
        ['/home', 'home', 'home-title'],
        ['/events', 'events', 'events-grid'],
        ['/404', 'not-found', 'not-found-title'],
      ]) {
        await page.goto(`${suite.server.url}${path}`);
        await page.getByTestId(ready).first().waitFor();
        await screenshot(page, `${theme}-${name}`);
      }
      assert.equal(await page.locator('html').getAttribute('data-mantine-color-scheme'), theme);
      await finish(b);
    }
  });
});
