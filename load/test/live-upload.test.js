'use strict';
// The live page's "Your document" control (src/live/upload.js) in headless Chromium, on the real driver (port 0) with
// a real node-async and a target that is down: a JSON file is handed over by its own PUT /documents and the page
// shows the driver's answer (the sha256 of the file's bytes, per service stored or why not); a CSV file goes as
// text/csv; a file that is not JSON shows the driver's refusal with its line and column; a file over the driver's cap
// is not sent at all; "Try it" starts the try suite on the document the page holds. No request leaves the driver.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { startService, request, until, tempDir, freePort } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');
const { findChromium, launchBrowser, watchedPage, BROWSER_TIMEOUT_MS } = require('./report-browser');

const CAP_BYTES = 4096;
// Chromium logs every answer that is not 2xx as a console error: these are the ones this test asks for (the series
// without Prometheus, the refused upload).
const EXPECTED_CONSOLE = /Failed to load resource: the server responded with a status of (400|503)/;

/* global document -- the page's, in functions puppeteer runs there */
test('the live page hands a chosen file to the driver, shows its answer, refuses what it must and starts the try suite', { skip: findChromium() ? false : 'no chromium (Debian package chromium)' }, async (t) => {
  const dir = tempDir('load-live-upload-');
  const service = await startService(makeService());
  t.after(() => service.close());
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', PROMETHEUS_URL: 'none', RESULTS_DIR: path.join(dir, 'results'), DOCUMENT_MAX_BYTES: String(CAP_BYTES), LOAD_TARGETS: `node-async=${service.url},gone=http://127.0.0.1:${await freePort()}` });
  t.after(() => stopDriver(driver));
  const origin = driver.url;
  const file = (name, text) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, text);
    return at;
  };

  const browser = await launchBrowser();
  t.after(() => browser.close()); // runs before the driver stops (after hooks run last first)
  const failures = [];
  const requests = [];
  const page = await watchedPage(browser, (url) => url.startsWith(`${origin}/`) || url.startsWith('data:'), 'a request outside the driver', { failures, requests });
  await page.goto(`${origin}/`, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });
  await page.waitForFunction(() => document.body.dataset.uploadReady === 'true', { timeout: BROWSER_TIMEOUT_MS });
  const input = await page.$('#document-file');
  const stateText = () => page.$eval('#document-state', (e) => e.textContent);
  const waitForState = (pattern) => page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#document-state').textContent), { timeout: BROWSER_TIMEOUT_MS }, pattern.source);
  const puts = () => requests.filter((url) => new URL(url).pathname === '/documents').length;

  // A JSON file: stored by node-async, not by the target that is down; its sha256 is the file's bytes'.
  const json = '{"order": 17, "lines": [{"sku": "a-1", "qty": 2}, {"sku": "b-2", "qty": -0}], "note": "ünïcode"}';
  await input.uploadFile(file('order.json', json));
  await waitForState(/services stored it/);
  const sha256 = crypto.createHash('sha256').update(json).digest('hex');
  assert.match(await stateText(), new RegExp(`order\\.json: JSON, ${Buffer.byteLength(json)} bytes, sha256 ${sha256}; 1 of 2 services stored it`));
  const services = await page.$$eval('#document-services > li', (items) => items.map((li) => [li.dataset.service, li.dataset.stored, li.textContent]));
  assert.deepStrictEqual(services.map(([name, stored]) => [name, stored]), [['node-async', 'true'], ['gone', 'false']]);
  assert.match(services[1][2], /^gone: not stored — its \/info did not answer/);
  assert.strictEqual(await page.$eval('#document-try', (b) => b.disabled), false, 'Try it is offered for a stored document');
  assert.strictEqual((await request(`${service.url}/documents`)).json.documents[0].sha256, sha256, 'node-async holds it');

  // A CSV file goes as CSV.
  await input.uploadFile(file('rows.csv', 'a,b\n1,2\n3,4\n'));
  await waitForState(/rows\.csv: CSV/);
  assert.match(await stateText(), /rows\.csv: CSV, 12 bytes, sha256 [0-9a-f]{64}; 1 of 2 services stored it/);

  // Not JSON: the driver's refusal, with its line and column, and nothing to try.
  await input.uploadFile(file('broken.json', '{"a": 1,\n  "b": }'));
  await waitForState(/broken\.json was refused/);
  assert.match(await stateText(), /broken\.json was refused \(HTTP 400\): .*line 2, column 8/);
  assert.strictEqual(await page.$eval('#document-try', (b) => b.disabled), true);

  // Over the cap: said, and not sent.
  const before = puts();
  await input.uploadFile(file('large.json', `[${'1,'.repeat(CAP_BYTES)}1]`));
  await waitForState(/over the driver's cap/);
  assert.strictEqual(puts(), before, 'a file over the cap is not sent');

  // Try it: the order again, then the try suite starts on it (stopped here: its run is documents.test.js' to check).
  await input.uploadFile(file('order-again.json', json));
  await waitForState(/order-again\.json: JSON/);
  await page.click('#document-try');
  await waitForState(/The try suite started/);
  const run = await until('the try run', 60000, async () => {
    const latest = (await request(`${origin}/runs/latest`)).json;
    return { done: latest && latest.suite === 'try' && latest.try !== undefined, value: latest, why: JSON.stringify(latest) };
  });
  assert.strictEqual(run.try.document, sha256, JSON.stringify(run));
  assert.ok([200, 409].includes((await request(`${origin}/runs/stop`, { method: 'POST' })).status));
  await until('the try run ended', 120000, async () => {
    const latest = (await request(`${origin}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(latest.state), why: latest.state };
  });

  const unexpected = failures.filter((f) => !EXPECTED_CONSOLE.test(f));
  assert.deepStrictEqual(unexpected, []);
});
