// End-to-end: concerts, cart, checkout with the built-in test provider, my-events and
// manage-events, pricing plans (one priced in Persian digits on a phone), in Debian's chromium
// against the real encore binary.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { cast, e2eSuite, fullName, inPersian, localInput, pageApi as api, payWithCard, PNG, screenshot, settle } from './harness.mjs';

const ACCOUNTS = cast({ admin: 'bea', fan: 'fiona', unlucky: 'ann', popup: 'ben' });

const suite = e2eSuite(ACCOUNTS);
const { browser, finish, signInAs } = suite;

const TITLE = 'Midnight at the Lighthouse';
/** A pass the Persian admin prices in Persian digits. */
const NOWRUZ_PASS = 'Nowruz pass';
// The declined card's 402 is logged by the browser on the hosted checkout page.
const DECLINE_402 = /status of 402/;

const badge = (page) => page.getByTestId('cart-badge').locator('.mantine-Indicator-indicator');

/** Adds the concert to the cart from the events page (the badge then shows 1). */
async function buyFromEvents(page) {
  await page.goto(`${suite.server.url}/events`);
  const card = page.getByTestId('event-card').filter({ hasText: TITLE });
  await card.getByTestId('event-buy').click();
  await card.getByTestId('event-in-cart').waitFor();
  await badge(page).waitFor();
  assert.equal(await badge(page).innerText(), '1');
}

describe('Encore concerts and checkout', () => {
  test('an admin creates a concert with an image in manage-events and publishes it', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    const project = await api(page, 'POST', '/api/v1/projects', { name: 'The Lighthouse Keepers' });
    assert.equal(project.status, 201, JSON.stringify(project.json));

    await page.goto(`${suite.server.url}/manage-events`);
    await page.getByTestId('empty-state').waitFor();
    await page.getByTestId('event-create').click();
    const form = page.getByTestId('event-form');
    await form.getByLabel('Project (artist)').click();
    await page.getByRole('option', { name: 'The Lighthouse Keepers' }).click();
    await form.locator('input[name="title"]').fill(TITLE);
    await form.locator('input[name="artistName"]').fill('The Lighthouse Keepers');
    await form.locator('textarea[name="description"]').fill('An acoustic set by the sea.');
    const startsAt = new Date(Date.now() + 3 * 86_400_000);
    startsAt.setSeconds(0, 0);
    await form.locator('input[name="startsAt"]').fill(localInput(startsAt));
    await form.locator('input[name="price"]').fill('15');
    await form.locator('input[name="capacity"]').fill('100');
    await form.locator('input[type="file"]').setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: PNG });
    // Framed at 16:9 before the upload, then previewed.
    await form.getByTestId('image-cropper').waitFor();
    await form.getByTestId('image-crop-apply').click();
    await form.getByTestId('image-preview').waitFor();
    await screenshot(page, 'dark-manage-events-form');
    await page.getByTestId('event-save').click();
    const row = page.getByTestId('manage-row').filter({ hasText: TITLE });
    await row.getByTestId('event-status').filter({ hasText: 'Draft' }).waitFor();
    await row.getByTestId('event-publish').click();
    await row.getByTestId('event-status').filter({ hasText: 'On sale' }).waitFor();

    // Stored with the zone: the same instant comes back.
    const managed = await api(page, 'GET', '/api/v1/events/manage');
    const created = managed.json.payload.find((event) => event.title === TITLE);
    assert.equal(Date.parse(created.startsAt), startsAt.getTime());
    assert.equal(created.price, 1500);
    assert.ok(created.image, 'the concert has an image');

    await page.goto(`${suite.server.url}/events`);
    const card = page.getByTestId('event-card').filter({ hasText: TITLE });
    await card.locator('img').waitFor();
    assert.equal(await card.getByTestId('event-price').innerText(), '€15.00');
    await finish(b);
  });

  test('a fan adds the concert to the cart, pays with 4242 4242 4242 4242, and sees it on checkout-success and in my-events', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.fan);
    await page.goto(`${suite.server.url}/events`);
    await page.getByTestId('event-card').filter({ hasText: TITLE }).getByRole('button', { name: 'Details' }).click();
    await page.getByTestId('event-details').getByText('An acoustic set by the sea.').waitFor();
    await page.waitForTimeout(400); // the drawer's slide-in transition
    await screenshot(page, 'dark-event-details');
    await page.keyboard.press('Escape');
    await buyFromEvents(page);
    await screenshot(page, 'dark-events');

    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('cart-entries').getByText(TITLE).waitFor();
    assert.equal(await page.getByTestId('cart-total').innerText(), '€15.00');
    await page.getByTestId('pay-now').click();
    await payWithCard(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/checkout-success\?order=/);
    await page.getByTestId('order-status').filter({ hasText: 'Complete' }).waitFor();
    await page.getByTestId('order-summary').getByText(TITLE).waitFor();
    assert.equal(await page.getByTestId('order-total').innerText(), '€15.00');
    await badge(page).waitFor({ state: 'detached' });
    await screenshot(page, 'dark-checkout-success');

    await page.goto(`${suite.server.url}/my-events`);
    const ticket = page.getByTestId('ticket-card').filter({ hasText: TITLE });
    await ticket.getByTestId('state-badge').filter({ hasText: 'Upcoming' }).waitFor();
    assert.match(await ticket.getByTestId('countdown').innerText(), /^Starts in 2d \u2066?\d\d:\d\d:\d\d\u2069?$/);
    await screenshot(page, 'dark-my-events');

    // The events page now says the ticket is owned.
    await page.goto(`${suite.server.url}/events`);
    await page.getByTestId('event-card').filter({ hasText: TITLE }).getByTestId('event-owned').waitFor();
    await finish(b);
  });

  test('a declined card (4000 0000 0000 0002) says why and leaves the cart intact', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.unlucky);
    await buyFromEvents(page);
    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('pay-now').click();
    await payWithCard(page, '4000 0000 0000 0002');
    await page.getByRole('alert').filter({ hasText: 'declined' }).waitFor();
    assert.match(await page.getByRole('alert').innerText(), /Your card was declined\. Your cart is unchanged/);
    await page.goto(`${suite.server.url}/cart`);
    await page.getByTestId('cart-entries').getByText(TITLE).waitFor();
    assert.equal(await badge(page).innerText(), '1');
    await finish(b, [DECLINE_402]);
  });

  test('checkout in a new window: /checkout opens the payment page and goes back to the cart', async () => {
    const b = await browser();
    const { page, context } = b;
    await signInAs(page, ACCOUNTS.popup);
    await buyFromEvents(page);
    await page.goto(`${suite.server.url}/cart`);
    const opened = context.waitForEvent('page');
    await page.getByTestId('checkout-new-window').click();
    const payment = await opened;
    await page.waitForURL(/\/cart$/);
    await payWithCard(payment, '4242424242424242');
    await payment.waitForURL(/\/checkout-success\?order=/);
    await payment.getByTestId('order-status').filter({ hasText: 'Complete' }).waitFor();
    await finish(b);
  });

  test('the admin sees the sales on manage-events, the sales chart, and the orders', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.getByTestId('sales-per-concert').getByText(TITLE).waitFor();
    await page.goto(`${suite.server.url}/manage-events`);
    const row = page.getByTestId('manage-row').filter({ hasText: TITLE });
    await row.getByTestId('tickets-sold').filter({ hasText: '2 / 100' }).waitFor();
    assert.equal(await row.getByTestId('revenue').innerText(), '€30.00');
    await screenshot(page, 'dark-manage-events');
    await row.getByRole('button', { name: 'Sales and stream key' }).click();
    await page.getByTestId('sales-chart').waitFor();
    // Keys are stored hashed: the panel shows one only when it is made (here, the first).
    await page.getByTestId('stream-key-rotate').click();
    await page.getByTestId('stream-key').waitFor();
    await page.getByTestId('stream-key-once').waitFor();
    await screenshot(page, 'dark-manage-events-sales');
    await page.keyboard.press('Escape');

    await page.goto(`${suite.server.url}/payments/orders`);
    await page.getByTestId('orders-table').waitFor();
    await screenshot(page, 'dark-orders');
    for (const [path, name, ready] of [
      ['/payments/payment-methods', 'payment-methods', 'payment-methods'],
      ['/payments/billing', 'billing', 'billing-address-form'],
    ]) {
      await page.goto(`${suite.server.url}${path}`);
      await page.getByTestId(ready).first().waitFor();
      await screenshot(page, `dark-${name}`);
    }
    await finish(b);
  });

  test('projects: an admin creates one and adds a member by e-mail; the member sees it with its status', async () => {
    const staff = await browser();
    await signInAs(staff.page, ACCOUNTS.admin);
    const page = staff.page;
    await page.goto(`${suite.server.url}/projects`);
    await page.getByTestId('projects-grid').waitFor();
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="name"]').fill('Harbour Choir');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const card = page.getByTestId('projects-grid').locator('.mantine-Card-root').filter({ hasText: 'Harbour Choir' });
    await card.getByTestId('project-status').filter({ hasText: 'Active' }).waitFor();
    await card.getByPlaceholder("Member's e-mail").fill(ACCOUNTS.fan.email);
    await card.getByRole('button', { name: 'Add' }).click();
    await card.getByText(fullName(ACCOUNTS.fan)).waitFor();
    await screenshot(page, 'dark-projects');
    await finish(staff);

    const member = await browser();
    await signInAs(member.page, ACCOUNTS.fan);
    await member.page.goto(`${suite.server.url}/projects`);
    await member.page.getByTestId('projects-grid').getByText('Harbour Choir').waitFor();
    assert.equal(await member.page.getByRole('button', { name: 'New project' }).count(), 0);
    // A member (role user) manages the project's concerts; the list holds only theirs.
    await member.page.getByTestId('projects-manage-events').click();
    await member.page.waitForURL(/\/manage-events$/);
    await member.page.getByTestId('empty-state').waitFor();
    await finish(member);
  });

  test('billing: server validation shows in its form; the account number comes back masked and is kept', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/payments/billing`);
    await page.getByTestId('billing-bank-tab').click();
    const bank = page.getByTestId('billing-bank-form');
    await bank.locator('input[name="bankName"]').fill('Harbour Bank');
    await bank.locator('input[name="accountNumber"]').fill('12345678');
    await bank.getByRole('button', { name: 'Save' }).click();
    // The server needs the billing name first: the error shows in this form.
    await page.getByTestId('billing-bank-error').filter({ hasText: 'The billing name is required.' }).waitFor();
    await page.getByRole('tab', { name: 'Billing address' }).click();
    const address = page.getByTestId('billing-address-form');
    await address.locator('input[name="name"]').fill('Encore Live Ltd');
    await address.locator('input[name="city"]').fill('Lisbon');
    await address.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Billing details saved.').first().waitFor();
    await page.getByTestId('billing-bank-tab').click();
    await bank.locator('input[name="sortCode"]').fill('12');
    await bank.locator('input[name="accountNumber"]').fill('12345678');
    await bank.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('billing-bank-error').filter({ hasText: 'sort code' }).waitFor();
    await bank.locator('input[name="sortCode"]').fill('123456');
    await bank.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => document.querySelector('input[name="accountNumber"]')?.value.includes('5678') && document.querySelector('input[name="accountNumber"]')?.value.includes('•'));
    assert.equal(await page.getByTestId('billing-bank-error').count(), 0);
    // Saving again with the masked value keeps the stored number.
    await bank.locator('input[name="notes"], textarea[name="notes"]').fill('Payouts monthly');
    await bank.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => document.querySelector('textarea[name="notes"]')?.value === 'Payouts monthly');
    const billing = await api(page, 'GET', '/api/v1/payments/billing');
    assert.match(billing.json.payload.bank.accountNumber, /5678$/);
    assert.equal(billing.json.payload.bank.sortCode, '12-34-56');
    await screenshot(page, 'dark-billing-bank');
    await finish(b, [/status of 422/]);
  });

  test('pricing plans: an admin creates a pass; a fan adds it to the cart from the events page', async () => {
    const staff = await browser();
    await signInAs(staff.page, ACCOUNTS.admin);
    const page = staff.page;
    await page.goto(`${suite.server.url}/payments/pricing-plans`);
    await page.getByRole('button', { name: 'New pass' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="name"]').fill('Season pass');
    await dialog.getByLabel('Price').fill('49');
    await dialog.getByLabel('Valid for (days)').fill('90');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('pricing-plans').getByText('Season pass').waitFor();
    await page.getByTestId('pricing-plans').getByText('€49.00 · 90 days').waitFor();
    await screenshot(page, 'dark-pricing-plans');
    await finish(staff);

    const b = await browser();
    await signInAs(b.page, ACCOUNTS.popup);
    await b.page.goto(`${suite.server.url}/events`);
    await b.page.getByTestId('pass-offers').getByTestId('pass-buy').click();
    await badge(b.page).waitFor();
    await b.page.goto(`${suite.server.url}/cart`);
    await b.page.getByTestId('cart-entries').getByText('Season pass').waitFor();
    assert.equal(await b.page.getByTestId('cart-total').innerText(), '€49.00');
    await finish(b);
  });

  test('390×844, Persian: an admin prices a pass on a Persian keyboard (۲۵٫۵۰) and 25.50 is saved', async () => {
    const b = await browser({ width: 390, height: 844 });
    const { page } = b;
    await inPersian(page);
    await signInAs(page, ACCOUNTS.admin);
    await page.goto(`${suite.server.url}/payments/pricing-plans`);
    await page.getByRole('button', { name: 'بلیت تازه' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="name"]').fill(NOWRUZ_PASS);
    await dialog.locator('input[name="price"]').fill('۲۵٫۵۰');
    await dialog.locator('input[name="price"]').scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, 'commerce-ir-phone-pass-price');
    await dialog.getByRole('button', { name: 'ذخیره' }).click();
    await dialog.waitFor({ state: 'detached' });
    const plans = (await api(page, 'GET', '/api/v1/pricing-plans')).json.payload;
    const made = plans.find((plan) => plan.name === NOWRUZ_PASS);
    assert.equal(made?.price, 2550, JSON.stringify(plans));
    // Retired again: the tests below offer one pass.
    assert.equal((await api(page, 'DELETE', `/api/v1/pricing-plans/${made.id}`)).status, 200);
    await finish(b);
  });

  test('an admin refunds an order from its page; the fan loses the concert', async () => {
    const b = await browser();
    const { page } = b;
    await signInAs(page, ACCOUNTS.admin);
    const orders = await api(page, 'GET', '/api/v1/orders');
    const popupAccount = (await api(page, 'GET', `/api/v1/accounts?search=${encodeURIComponent(ACCOUNTS.popup.email)}`)).json.payload.items[0];
    const order = orders.json.payload.items.find((o) => o.accountId === popupAccount.id && o.status === 'fulfilled');
    assert.ok(order, 'the popup buyer has a fulfilled order');
    await page.goto(`${suite.server.url}/payments/orders`);
    await page.getByTestId('orders-table').getByRole('link', { name: order.id.slice(0, 8) }).click();
    await page.getByTestId('order-refund').click();
    await page.getByTestId('confirm-refund').click();
    await page.getByTestId('order-status').filter({ hasText: 'Refunded' }).waitFor();
    await screenshot(page, 'dark-order-refunded');
    await finish(b);

    const fan = await browser();
    await signInAs(fan.page, ACCOUNTS.popup);
    await fan.page.goto(`${suite.server.url}/my-events`);
    await fan.page.getByTestId('empty-state').waitFor();
    await finish(fan);
  });

  test('the public home page lists the concert without sign-in and leads to its page, sign-in, then back to it', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await page.goto(`${suite.server.url}/home`);
    await page.getByTestId('home-upcoming').getByText(TITLE).waitFor();
    await screenshot(page, 'dark-home-public');
    await page.getByTestId('home-event').filter({ hasText: TITLE }).click();
    await page.waitForURL(/\/concerts\//);
    await page.getByTestId('concert-sign-in').click();
    await page.waitForURL(/\/auth\/login\?redirect=/);
    await page.locator('input[name="email"]').fill(ACCOUNTS.fan.email);
    await page.locator('input[name="password"]').fill(ACCOUNTS.fan.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/concerts\//);
    await page.getByTestId('concert-page').getByTestId('event-owned').waitFor();
    await finish(b);
  });

  test('light theme and Persian (right-to-left) screenshots of the new screens', async () => {
    const b = await browser({ width: 1280, height: 900 });
    const { page } = b;
    await page.addInitScript(() => {
      localStorage.setItem('theme-preset', 'light');
    });
    await signInAs(page, ACCOUNTS.fan);
    for (const [path, name, ready] of [
      ['/events', 'events', 'events-grid'],
      ['/my-events', 'my-events', 'my-events'],
      ['/dashboard', 'dashboard-fan', 'next-concerts'],
    ]) {
      await page.goto(`${suite.server.url}${path}`);
      await page.getByTestId(ready).waitFor();
      await screenshot(page, `light-${name}`);
    }
    await page.evaluate(() => {
      localStorage.setItem('language', 'ir');
    });
    await page.goto(`${suite.server.url}/my-events`);
    await page.getByTestId('my-events').waitFor();
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    await page.getByText('بلیت دارید').count();
    await screenshot(page, 'light-my-events-ir');
    await page.goto(`${suite.server.url}/events`);
    await page.getByTestId('event-owned').first().getByText('بلیت دارید').waitFor();
    await screenshot(page, 'light-events-ir');
    await finish(b);
  });

  describe('manage-events', () => {
    // The refused upload's 415 is logged by the browser.
    const held = suite.signedIn(ACCOUNTS.admin, { width: 1280, height: 900, allow: [/status of 415/] });
    const row = (title) => held.page.getByTestId('manage-row').filter({ hasText: title });

    before(async () => {
      const { page } = held;
      const projects = await api(page, 'GET', '/api/v1/projects');
      const projectId = projects.json.payload.items.find((p) => p.name === 'The Lighthouse Keepers').id;
      const startsAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
      for (const title of ['Rainy Day Session', 'Draft to delete']) {
        const created = await api(page, 'POST', '/api/v1/events', { projectId, title, artistName: 'The Lighthouse Keepers', startsAt, price: 500, currency: 'EUR' });
        assert.equal(created.status, 201, JSON.stringify(created.json));
        if (title === 'Rainy Day Session') await api(page, 'POST', `/api/v1/events/${created.json.payload.id}/publish`);
      }
      await page.goto(`${suite.server.url}/manage-events`);
    });

    test('a non-image upload says "File type is incorrect"', async () => {
      const { page } = held;
      await row('Rainy Day Session').getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await page.getByTestId('event-form').locator('input[type="file"]').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
      // The browser cannot read it as a picture: refused before any framing or upload.
      await page.getByText('File type is incorrect').first().waitFor();
      assert.equal(await page.getByTestId('image-cropper').count(), 0);
      await page.getByTestId('event-form').getByRole('button', { name: 'Close' }).click();
    });

    test('cancelling a concert asks first and says its tickets are refunded', async () => {
      const { page } = held;
      const rainy = row('Rainy Day Session');
      await rainy.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Cancel the concert' }).click();
      await page.getByRole('dialog').getByText('every ticket sold (0) will be refunded').waitFor();
      await page.getByTestId('confirm-action').click();
      await rainy.getByTestId('event-status').filter({ hasText: 'Cancelled' }).waitFor();
    });

    test('delete removes an unsold concert after confirmation', async () => {
      const { page } = held;
      const draft = row('Draft to delete');
      await draft.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByTestId('confirm-action').click();
      await draft.waitFor({ state: 'detached' });
    });

    test('a concert with sales offers no delete', async () => {
      const { page } = held;
      await row(TITLE).getByRole('button', { name: 'More actions' }).click();
      assert.equal(await page.getByRole('menuitem', { name: 'Delete' }).count(), 0);
      await page.keyboard.press('Escape');
    });
  });
});
