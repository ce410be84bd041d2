// End-to-end (issue 10): the places an admin must be able to reach on a fresh install —
// Projects from the menu and from the concert form, payments for a super admin, the dev
// outbox, and every notification — in Debian's chromium against the real encore binary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiSession, cast, changePictures, e2eSuite, fullName, localInput, PASSWORD, payCart, screenshot } from './harness.mjs';

// A fresh install: only these accounts, no demo data (no project, no concert). The `bell`
// admin reads the notifications of the pictures the owner (`sa`) gives them below (one each);
// the `holder` holds an all-access pass: every upcoming concert is theirs.
const ACCOUNTS = cast({ admin: 'ada', sa: 'sasha', bell: 'bea', holder: 'fiona' });

const suite = e2eSuite(ACCOUNTS, { width: 1280, height: 900 });
const { browser, finish, signInAs } = suite;

const PICTURES = 23;

/** Fills the concert form's own fields (the project is chosen by the caller) and saves. */
async function fillConcert(page, title, daysAhead) {
  const form = page.getByTestId('event-form');
  await form.locator('input[name="title"]').fill(title);
  await form.locator('input[name="artistName"]').fill(`${title} artist`);
  const startsAt = new Date(Date.now() + daysAhead * 86_400_000);
  startsAt.setSeconds(0, 0);
  await form.locator('input[name="startsAt"]').fill(localInput(startsAt));
  await form.locator('input[name="price"]').fill('12');
  await page.getByTestId('event-save').click();
  await page.getByTestId('manage-row').filter({ hasText: title }).waitFor();
}

describe('Places an admin can reach (issue 10)', () => {
  test('an admin on a fresh install finds Projects in the menu, creates one, and creates concerts picking it or creating a project in the form', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);

    await page.locator('[data-menu-key="projects"]').click();
    await page.waitForURL(/\/projects$/);
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'New project' }).click();
    await page.locator('input[name="name"]').fill('Northern Lights');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('projects-grid').getByText('Northern Lights').waitFor();

    // A concert for that project, picked from the searchable list.
    await page.locator('[data-menu-key="manage-events"]').click();
    await page.waitForURL(/\/manage-events$/);
    await page.getByTestId('event-create').click();
    const form = page.getByTestId('event-form');
    await form.getByLabel('Project (artist)').fill('North');
    await page.getByRole('option', { name: 'Northern Lights' }).click();
    await fillConcert(page, 'Aurora Nights', 5);

    // Another concert, creating its project from inside the concert form.
    await page.getByTestId('event-create').click();
    await form.getByTestId('event-new-project').click();
    await form.getByTestId('new-project-name').fill('Southern Cross');
    await form.getByTestId('new-project-description').fill('A choir from the south.');
    await screenshot(page, 'dark-event-form-new-project');
    await form.getByTestId('new-project-create').click();
    await form.getByTestId('new-project').waitFor({ state: 'detached' });
    assert.equal(await form.getByLabel('Project (artist)').inputValue(), 'Southern Cross');
    await fillConcert(page, 'Crux at Dawn', 6);

    const api = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    const projects = (await api('GET', '/api/v1/projects?page=1&pageSize=100')).json.payload.items;
    const concerts = (await api('GET', '/api/v1/events/manage')).json.payload;
    const projectOf = (title) => projects.find((p) => p.id === concerts.find((c) => c.title === title)?.projectId);
    assert.equal(projectOf('Aurora Nights')?.name, 'Northern Lights');
    assert.equal(projectOf('Crux at Dawn')?.name, 'Southern Cross');
    assert.equal(projectOf('Crux at Dawn')?.description, 'A choir from the south.');

    await page.locator('[data-menu-key="projects"]').click();
    await page.getByTestId('projects-grid').getByText('Southern Cross').waitFor();
    await finish(b);
  });

  test('a super admin has the payments menu and opens every payments page (no 403)', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.sa);
    await page.locator('[data-menu-key="payments"]').click();
    for (const [key, path, heading] of [
      ['payment-methods', '/payments/payment-methods', 'Payment methods'],
      ['pricing-plans', '/payments/pricing-plans', 'Pricing plans'],
      ['billing', '/payments/billing', 'Billing'],
      ['orders', '/payments/orders', 'Orders'],
    ]) {
      await page.locator(`[data-menu-key="${key}"]`).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      // Give the page's own calls time to answer: a 403 would send it to /403.
      await page.waitForLoadState('networkidle');
      assert.equal(new URL(page.url()).pathname, path, `${key} stayed open`);
    }
    await finish(b);
  });

  test('an admin opens the outbox from the menu and reads a new fan’s sign-up e-mail with its verification link; mail to a peer admin is redacted', async () => {
    const fan = 'nova.fan@example.com';
    const b = await browser();
    const { page } = b;
    // A fan signs up through the UI: the welcome e-mail carries the verification link.
    await page.goto(`${suite.server.url}/auth/signup`);
    await page.locator('input[name="fullname"]').fill('Nova Fan');
    await page.locator('input[name="email"]').fill(fan);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/auth\/login(\?email=[^&]*)?$/);
    // The sa invites another admin: the invitation carries a link this admin may not see.
    const sa = await apiSession(suite.server.url, ACCOUNTS.sa.email, ACCOUNTS.sa.password);
    const invited = await sa('POST', '/api/v1/accounts', { login: 'peer-admin@example.com', person: { firstName: 'Pia', lastName: 'Peer' }, roles: ['admin'] });
    assert.equal(invited.status, 201, JSON.stringify(invited.json));
    for (let i = 0; i < 50 && !suite.server.outbox().some((m) => m.to === fan); i++) await page.waitForTimeout(100);

    await signInAs(page, ACCOUNTS.admin);
    await page.locator('[data-menu-key="outbox"]').click();
    await page.waitForURL(/\/outbox$/);
    const mail = page.locator(`[data-testid="outbox-message"][data-to="${fan}"][data-channel="email"]`).first();
    await mail.waitFor();
    assert.match(await mail.innerText(), /Welcome to Encore/);
    const link = mail.getByTestId('outbox-link');
    const href = await link.getAttribute('href');
    assert.match(href, /\/auth\/verify-email\?token=/);
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await mail.getByTestId('outbox-redacted').count(), 0);
    // Newest first: the fan's mail comes after (below) the later invitation.
    const peer = page.locator('[data-testid="outbox-message"][data-to="peer-admin@example.com"]').first();
    await peer.getByTestId('outbox-redacted').waitFor();
    assert.doesNotMatch(await peer.getByTestId('outbox-body').innerText(), /token=/);
    const order = await page.getByTestId('outbox-message').evaluateAll((cards) => cards.map((c) => c.dataset.to));
    assert.ok(order.indexOf('peer-admin@example.com') < order.indexOf(fan), order.join(', '));
    await screenshot(page, 'dark-outbox');
    // The link is clickable: it opens the verification page, which confirms the address.
    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await opened.getByTestId('verify-email-done').waitFor();
    await finish(b);
  });

  test('a fan who signs up is asked to confirm the address, opens the e-mail’s link and the reminder goes away', async () => {
    const fan = 'vera.verify@example.com';
    const b = await browser();
    const { page } = b;
    await page.goto(`${suite.server.url}/auth/signup`);
    await page.locator('input[name="fullname"]').fill('Vera Verify');
    await page.locator('input[name="email"]').fill(fan);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="passwordCheck"]').fill(PASSWORD);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/auth\/login(\?email=[^&]*)?$/);
    await signInAs(page, { email: fan, password: PASSWORD });
    await page.getByTestId('verify-email-banner').waitFor();

    let link;
    for (let i = 0; i < 50 && !link; i++) {
      const mail = suite.server.outbox().find((m) => m.to === fan && m.channel === 'email');
      link = /https?:\/\/\S+\/auth\/verify-email\?token=[\w-]+/.exec(mail?.body ?? '')?.[0];
      if (!link) await page.waitForTimeout(100);
    }
    assert.ok(link, 'a verification link reached the outbox');
    await page.goto(link);
    await page.getByTestId('verify-email-done').waitFor();
    await page.getByText('E-mail address confirmed').waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('account-summary').waitFor();
    assert.equal(await page.getByTestId('verify-email-banner').count(), 0);
    await finish(b);
  });

  test('the notifications page pages and filters by All, Unread and Read, and marks as read', async () => {
    await changePictures(suite.server.url, ACCOUNTS.sa, ACCOUNTS.bell, PICTURES);
    const bell = await apiSession(suite.server.url, ACCOUNTS.bell.email, ACCOUNTS.bell.password);
    const { total } = (await bell('GET', '/api/v1/notifications?page=1&pageSize=1')).json.payload;
    assert.ok(total > 20, `more than one page (${String(total)})`);

    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.bell);
    await page.getByRole('button', { name: 'Open notifications' }).click();
    await page.getByTestId('notifications-see-all').click();
    await page.waitForURL(/\/notifications$/);
    const list = page.getByTestId('notifications-list');
    const items = list.getByTestId('notification');
    await list.waitFor();
    assert.equal(await items.count(), 20);
    assert.equal(await list.getAttribute('data-total'), String(total));

    // Page 2 holds the rest.
    await page.getByTestId('notifications-pagination').getByRole('button', { name: '2', exact: true }).click();
    await page.waitForURL(/page=2/);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="notification"]').length === n, total - 20);

    // Mark three as read on page 1.
    await page.getByTestId('notifications-pagination').getByRole('button', { name: '1', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notification"]').length === 20);
    for (let i = 0; i < 3; i++) {
      // A picture's notice links nowhere: clicking it marks it read, here.
      await list.locator('[data-testid="notification"][data-read="false"]').first().click();
      await list.locator('[data-testid="notification"][data-read="true"]').nth(i).waitFor();
    }

    await page.getByTestId('notifications-filter').getByText('Read', { exact: true }).click();
    await page.waitForURL(/filter=read/);
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications-list"]')?.getAttribute('data-total') === '3');
    assert.equal(await items.count(), 3);
    assert.equal(await list.locator('[data-read="false"]').count(), 0);

    await page.getByTestId('notifications-filter').getByText('Unread', { exact: true }).click();
    await page.waitForURL(/filter=unread/);
    await page.waitForFunction((n) => document.querySelector('[data-testid="notifications-list"]')?.getAttribute('data-total') === String(n), total - 3);
    assert.equal(await list.locator('[data-read="true"]').count(), 0);
    await screenshot(page, 'dark-notifications-page');

    await page.getByTestId('notifications-mark-all').click();
    await page.getByText('You have no unread notifications.').waitFor();
    assert.equal(await page.getByTestId('notifications-pagination').count(), 0);
    await finish(b);
  });

  test('my-events lists a pass holder’s concerts a page at a time, soonest first', async () => {
    const admin = await apiSession(suite.server.url, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    const project = await admin('POST', '/api/v1/projects', { name: 'Pass Parade' });
    assert.equal(project.status, 201, JSON.stringify(project.json));
    const count = 14;
    for (let i = 0; i < count; i++) {
      const startsAt = new Date(Date.now() + (10 + i) * 86_400_000).toISOString();
      const created = await admin('POST', '/api/v1/events', {
        projectId: project.json.payload.id, title: `Parade night ${String(i + 1).padStart(2, '0')}`, artistName: 'Pass Parade', startsAt, price: 500, currency: 'EUR',
      });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      assert.equal((await admin('POST', `/api/v1/events/${created.json.payload.id}/publish`)).status, 200);
    }
    const plan = await admin('POST', '/api/v1/pricing-plans', { name: 'Parade pass', price: 3000, currency: 'EUR', days: 60 });
    assert.ok(plan.status < 300, JSON.stringify(plan.json));

    const holder = await apiSession(suite.server.url, ACCOUNTS.holder.email, ACCOUNTS.holder.password);
    assert.equal((await holder('POST', `/api/v1/cart/passes/${plan.json.payload.id}`)).status, 200);
    const paid = await payCart(holder, fullName(ACCOUNTS.holder));
    assert.equal(paid.status, 200, JSON.stringify(paid.json));
    const mine = (await holder('GET', '/api/v1/events/mine?page=1&pageSize=12')).json.payload;
    assert.ok(mine.total >= count, JSON.stringify({ total: mine.total }));

    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.holder);
    await page.locator('[data-menu-key="my-events"]').click();
    const grid = page.getByTestId('my-events');
    await grid.waitFor();
    assert.equal(await grid.getAttribute('data-total'), String(mine.total));
    assert.equal(await grid.getByTestId('ticket-card').count(), 12);
    assert.match(await grid.getByTestId('ticket-card').first().innerText(), /Parade night 01/);
    await page.getByTestId('my-events-pagination').getByRole('button', { name: '2', exact: true }).click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="ticket-card"]').length === n, mine.total - 12);
    assert.match(await grid.getByTestId('ticket-card').last().innerText(), /Parade night 14/);
    await finish(b);
  });
});
