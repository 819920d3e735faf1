'use strict';
// The live page's "Attach a service" form (src/live/attach.js) in headless Chromium, on the real driver (port 0)
// against a small real HTTP server of the test's own (port 0): an endpoint the driver must not load is refused with
// the driver's reason shown and no run; then the form starts a real attach run on the small server through POST
// /attach, the page follows it under "Running now" with the attached target among its rows, and shows the run's
// verdict lines (the run state's attachVerdict) once it has ended. No request leaves the driver.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const path = require('node:path');
const fs = require('node:fs');
const { request, tempDir } = require('@lab/test-kit');
const { startDriver, stopDriver } = require('./driver-process');
const { findChromium, launchBrowser, watchedPage, BROWSER_TIMEOUT_MS } = require('./report-browser');

// The attach run's seven loads of a second each, their warm-ups and the waits between: a bound, not a timing.
const RUN_TIMEOUT_MS = 240000;
// Chromium logs every answer that is not 2xx as a console error: these are the ones this test asks for (the series
// without Prometheus, the refused attach).
const EXPECTED_CONSOLE = /Failed to load resource: the server responded with a status of (400|503)/;

/* global document, window -- the page's, in functions puppeteer runs there */
test('the live page attaches a service through POST /attach, shows a refusal, follows the run and shows its verdict', { skip: findChromium() ? false : 'no chromium (Debian package chromium)', timeout: RUN_TIMEOUT_MS + 60000 }, async (t) => {
  const dir = tempDir('load-live-attach-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  let served = 0;
  const service = http.createServer((req, res) => {
    served++;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise((resolve) => service.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => service.close(resolve)));
  const serviceUrl = `http://127.0.0.1:${service.address().port}`;
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', PROMETHEUS_URL: 'none', RESULTS_DIR: path.join(dir, 'results'), LOAD_TARGETS: `node-async=http://127.0.0.1:1` });
  t.after(() => stopDriver(driver));
  const origin = driver.url;

  const browser = await launchBrowser();
  t.after(() => browser.close()); // runs before the driver stops (after hooks run last first)
  const failures = [];
  const page = await watchedPage(browser, (url) => url.startsWith(`${origin}/`) || url.startsWith('data:'), 'a request outside the driver', { failures, requests: [] });
  await page.goto(`${origin}/`, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });
  await page.waitForFunction(() => document.body.dataset.attachReady === 'true', { timeout: BROWSER_TIMEOUT_MS });
  const waitForText = (selector, pattern, timeout = BROWSER_TIMEOUT_MS) => page.waitForFunction((s, source) => new RegExp(source).test(document.querySelector(s).textContent), { timeout, polling: 200 }, selector, pattern.source);
  const fill = async (selector, text) => {
    await page.$eval(selector, (input) => (input.value = ''));
    if (text) await page.type(selector, text);
  };

  // A machine that is not this one: the driver's refusal, word for word, and no run.
  await fill('#attach-url', 'http://10.1.2.3:3000/db');
  await page.click('#attach-start');
  await waitForText('#attach-state', /Not attached/);
  assert.match(await page.$eval('#attach-state', (e) => e.textContent), /^Not attached \(HTTP 400\): url: 10\.1\.2\.3 is not this machine nor one of the lab's own hosts; .*LOAD_ATTACH_ALLOW_REMOTE=1/);
  assert.strictEqual((await request(`${origin}/runs/latest`)).status, 404, 'no run started');
  assert.strictEqual(served, 0);

  // The small server, with a probe path of its own and no agent, a second a load.
  await fill('#attach-url', `${serviceUrl}/items`);
  await fill('#attach-probe', '/ping');
  await fill('#attach-seconds', '1');
  await page.click('#attach-start');
  await waitForText('#attach-state', /The attach suite started/);
  assert.match(await page.$eval('#attach-state', (e) => e.textContent), new RegExp(`started on GET ${serviceUrl}/items \\(no agent\\)`));
  // Followed as any run: its suite under "Running now", the attached service among the rows of charts.
  await waitForText('[data-field="suite"]', /^attach$/);
  await page.waitForFunction(() => window.labLive.state.targets.some((target) => target.name === 'attached'), { timeout: BROWSER_TIMEOUT_MS });
  await waitForText('[data-field="state"]', /^attach: (passed|failed)/, RUN_TIMEOUT_MS);
  await waitForText('#attach-verdict', /no agent answered beside the service/);
  const latest = (await request(`${origin}/runs/latest`)).json;
  assert.strictEqual(latest.state, 'passed', JSON.stringify(latest.completed.map((c) => [c.name, c.problems])));
  const shown = await page.$$eval('#attach-verdict > li', (items) => items.map((li) => li.textContent));
  assert.deepStrictEqual(shown, latest.attachVerdict.lines);
  assert.ok(served > latest.completed.length, `the service served ${served} requests`);

  const unexpected = failures.filter((f) => !EXPECTED_CONSOLE.test(f));
  assert.deepStrictEqual(unexpected, []);
});
