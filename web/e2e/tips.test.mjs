// End-to-end (issue 31, tips during the show): during a show the real `encore push` sends,
// a fan on the stage tips the artist an amount of their own typed in Persian digits, with a
// message, and pays on the test provider's page (a window of its own: the show plays on);
// the artist's live panel lists the tip as it arrives and another listener's room shows it
// highlighted; the tipper's orders and receipt name it ("Tip to … for …"). On a 390 px phone
// in Persian the tip form fits the screen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiSession, inPersian, layoutProblems, openManageDrawer, PASSWORD, payWithCard, screenshot, settle } from './harness.mjs';
import { author, fullRoom, messages, openLivePanel, STREAM_ANSWERS } from './room-helpers.mjs';

const TITLE = 'Tips in the Hall';
const { accounts: ACCOUNTS, suite, show, onStage } = fullRoom({ title: TITLE, frequency: 440 });
const { browser, finish, signInAs } = suite;

describe('Tips during the show (issue 31)', () => {
  test('a fan tips an amount typed in Persian digits; the artist panel and another listener see it', async () => {
    const artist = await browser({ width: 1280, height: 1000 });
    await signInAs(artist.page, ACCOUNTS.artist);
    const panel = await openLivePanel(suite, artist.page, TITLE);
    await panel.getByTestId('tips-panel').waitFor();

    const a = await onStage(ACCOUNTS.fanA);
    const b = await onStage(ACCOUNTS.fanB);

    // The form: presets in the concert's currency, and an amount of one's own.
    await a.page.getByTestId('tip-open').click();
    const modal = a.page.getByRole('dialog');
    await modal.getByTestId('tip-preset').first().waitFor({ state: 'attached' });
    assert.deepEqual(await modal.getByTestId('tip-preset').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-amount'))), ['200', '500', '1000', '2000']);
    // Below the minimum: said in the form, nothing sent.
    await modal.getByTestId('tip-amount').fill('0.5');
    await modal.getByTestId('tip-pay').click();
    await modal.getByText('A tip is at least €1.00').waitFor();
    // 7.50 typed in Persian digits is read as 7.50.
    await modal.getByTestId('tip-amount').fill('۷٫۵۰');
    await modal.getByTestId('tip-message').fill('Bravo from row three');
    assert.equal(await modal.getByTestId('tip-pay').textContent(), 'Tip €7.50');
    // The payment page opens in a window of its own while the show plays here.
    const [payment] = await Promise.all([a.page.context().waitForEvent('page'), modal.getByTestId('tip-pay').click()]);
    await payWithCard(payment, '4242 4242 4242 4242');
    await payment.waitForURL(new RegExp(`/stage/${show.concert.id}\\?tipped=`), { timeout: 15_000 });
    await payment.close();

    // The artist's panel lists it as it arrives: who, how much, what they wrote.
    const listed = panel.getByTestId('tips-panel-tip').filter({ hasText: 'Bravo from row three' });
    await listed.waitFor({ timeout: 15_000 });
    assert.match(await listed.textContent(), new RegExp(`${author(ACCOUNTS.fanA)}.*€7\\.50`));
    assert.match(await panel.getByTestId('tips-totals').textContent(), /€7\.50 from 1/);

    // Another listener's room shows it highlighted, with its amount.
    const said = messages(b.page, 'Bravo from row three');
    await said.waitFor({ timeout: 20_000 });
    assert.equal(await said.getByTestId('room-tip').getAttribute('data-kind'), 'tip');
    assert.equal(await said.getByTestId('room-message-tip').textContent(), 'tipped €7.50');
    await screenshot(b.page, 'dark-tip-in-room');

    // The tipper's orders and receipt say what it was.
    const tipFor = `Tip to ${TITLE} band for ${TITLE}`;
    await a.page.goto(`${suite.server.url}/my-orders`);
    const order = a.page.getByTestId('my-order').filter({ hasText: tipFor });
    await order.waitFor();
    await order.getByTestId('open-receipt').click();
    assert.match(await a.page.getByTestId('receipt-tip').innerText(), new RegExp(`${tipFor}\\s+€7\\.50`));

    await finish(artist);
    await finish(a, [STREAM_ANSWERS]);
    await finish(b, [STREAM_ANSWERS]);
  });

  test('in Persian on a 390 px phone the tip form fits, and reads Persian digits', async () => {
    const p = await onStage(ACCOUNTS.persian, { language: 'ir', width: 390, height: 844, follow: false });
    const { page } = p;
    await page.getByTestId('tip-open').click();
    const modal = page.getByRole('dialog');
    await modal.getByTestId('tip-preset').first().waitFor({ state: 'attached' });
    await modal.getByTestId('tip-amount').fill('۱۲');
    assert.match(await modal.getByTestId('tip-pay').textContent(), /۱۲/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
    const box = await modal.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the form within the screen: ${JSON.stringify(box)}`);
    await screenshot(page, 'dark-tip-form-phone-fa');
    await finish(p, [STREAM_ANSWERS]);
  });

  test('390 px, Persian: the artist sets the concert\'s presets and minimum, then turns tips off', async () => {
    const a = await suite.browserAs(ACCOUNTS.artist, { width: 390, height: 844, prepare: inPersian });
    const { page } = a;
    const drawer = await openManageDrawer(page, suite.server.url, TITLE, { item: 'manage-tips', panel: 'tips-drawer', firstRow: 'tips-settings' });
    // The defaults: 2, 5, 10 and 20.
    assert.equal(await drawer.getByTestId('tips-presets').inputValue(), '۲٫۰۰، ۵٫۰۰، ۱۰٫۰۰، ۲۰٫۰۰');
    // Typed in Persian digits with the Persian comma.
    await drawer.getByTestId('tips-presets').fill('۳، ۸');
    await drawer.getByTestId('tips-minimum').fill('۳');
    await drawer.getByTestId('tips-save').click();
    await drawer.getByTestId('tips-settings-saved').waitFor();
    await settle(page);
    await screenshot(page, 'tips-settings-phone-fa');
    assert.deepEqual(await page.evaluate(layoutProblems, { minTap: 44 }), [], 'phone layout problems in the tips drawer');
    const api = await apiSession(suite.server.url, ACCOUNTS.artist.email, PASSWORD);
    const options = (await api('GET', `/api/v1/events/${show.concert.id}/tips/options`)).json.payload;
    assert.deepEqual({ presets: options.presets, minimum: options.minimum, enabled: options.enabled }, { presets: [300, 800], minimum: 300, enabled: true });
    // A preset under the minimum: the server says why, in Persian.
    await drawer.getByTestId('tips-presets').fill('۲');
    await drawer.getByTestId('tips-save').click();
    assert.match(await drawer.getByTestId('tips-settings-error').innerText(), /انعام پیشنهادی/);

    // The fan's form offers the new presets; off, it offers no tip at all.
    const f = await onStage(ACCOUNTS.fanB, { follow: false });
    await f.page.getByTestId('tip-open').click();
    const modal = f.page.getByRole('dialog');
    await modal.getByTestId('tip-preset').first().waitFor({ state: 'attached' });
    assert.deepEqual(await modal.getByTestId('tip-preset').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-amount'))), ['300', '800']);
    await finish(f, [STREAM_ANSWERS]);
    await drawer.getByTestId('tips-presets').fill('۳، ۸');
    await drawer.getByTestId('tips-enabled').click();
    await drawer.getByTestId('tips-save').click();
    await drawer.getByTestId('tips-settings-saved').waitFor();
    const off = await onStage(ACCOUNTS.fanB, { follow: false });
    await off.page.getByTestId('room').or(off.page.getByTestId('stage')).first().waitFor().catch(() => {});
    await settle(off.page);
    assert.equal(await off.page.getByTestId('tip-open').count(), 0, 'a tip button with tips off');
    await finish(off, [STREAM_ANSWERS]);
    // The refused preset above is the one error the artist's page sees, on purpose.
    await finish(a, [/status of 422 .*\/tips\/settings\)/]);
  });
});
