// End-to-end (issue 16): the API reference at /api/docs loads in chromium from Encore
// alone — every request it makes stays on the server's origin — and shows the document
// the server generates.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openBrowser, startServer } from './harness.mjs';

let server;
let opened;

before(async () => {
  server = await startServer([]);
  opened = await openBrowser();
});

after(async () => {
  await opened?.close();
  await server?.stop();
});

test('the API reference loads with no request leaving the server', async () => {
  const { page, errors } = opened;
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${server.url}/api/docs`);
  await page.getByRole('heading', { name: /Encore API/ }).waitFor();
  // An operation of each area is listed, e.g. the health probe and the sign-up.
  await page.getByText('/api/v1/health', { exact: true }).first().waitFor();
  const origin = new URL(server.url).origin;
  const elsewhere = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
  assert.deepEqual(elsewhere, [], 'requests left the server');
  assert.ok(requests.some((url) => url.endsWith('/api/v1/openapi.json')), 'the document was fetched');
  assert.deepEqual(errors, [], 'the browser logged errors');
});
