'use strict';
// Other sites' pages cannot start or stop a load run: the driver (src/main.js on port 0) refuses a POST whose Origin
// or Sec-Fetch-Site is another site's and any run route reached by a name that is not its own (a rebound DNS name),
// while Prometheus' and health checks' routes answer by any name. Then the same from a real page in headless
// Chromium: a simple cross-origin POST /runs (no preflight) gets the 403 and starts nothing.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const http = require('node:http');
const path = require('node:path');
const { request } = require('@lab/test-kit');
const { startDriver, stopDriver } = require('./driver-process');
const { findChromium, launchBrowser, BROWSER_TIMEOUT_MS } = require('./report-browser');


async function idleDriver(t) {
  const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-cross-site-'));
  t.after(() => fs.rmSync(resultsDir, { recursive: true, force: true }));
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', RESULTS_DIR: resultsDir, LOAD_HOST_NAMES: 'load,lab-driver.internal' });
  t.after(() => stopDriver(driver));
  return driver;
}

const post = (driver, target, headers) => request(`${driver.url}${target}`, { method: 'POST', headers });

test("a POST from another site's page, or to a name that is not the driver's, is refused and starts nothing", async (t) => {
  const driver = await idleDriver(t);
  const own = `http://127.0.0.1:${driver.port}`;
  const refused = [
    ['an Origin of another site', '/runs?suite=smoke', { Origin: 'http://evil.example' }],
    ['an Origin of another port on the same host', '/runs?suite=smoke', { Origin: 'http://127.0.0.1:1' }],
    ['Origin null (a sandboxed frame, a data: page)', '/runs?suite=smoke', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site without Origin', '/runs?suite=smoke', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (another port of localhost)', '/runs?suite=smoke', { 'Sec-Fetch-Site': 'same-site' }],
    ['a rebound DNS name in Host', '/runs?suite=smoke', { Host: `evil.example:${driver.port}` }],
    ['a rebound name with the driver\'s own Origin', '/runs?suite=smoke', { Host: `evil.example:${driver.port}`, Origin: `http://evil.example:${driver.port}` }],
    ['stop from another site', '/runs/stop', { Origin: 'http://evil.example' }],
    ['attach from another site (its load would go wherever the page says)', '/attach?url=http://127.0.0.1:1/', { Origin: 'http://evil.example' }],
    ['attach by a rebound name', '/attach?url=http://127.0.0.1:1/', { Host: `evil.example:${driver.port}` }],
  ];
  for (const [name, target, headers] of refused) {
    const answer = await post(driver, target, headers);
    assert.strictEqual(answer.status, 403, `${name}: ${answer.text}`);
    assert.match(answer.json.error, /another site|not one of this server's names/, name);
    assert.ok(Array.isArray(answer.json.allowed), `${name}: names what is allowed`);
  }
  // A read by a rebound name is refused too: the run's state is not another site's to read.
  assert.strictEqual((await request(`${driver.url}/runs/latest`, { headers: { Host: 'evil.example' } })).status, 403);
  // Nothing started, and the driver's own names still reach it (409: nothing to stop, past the guard).
  assert.strictEqual((await request(`${driver.url}/runs/latest`)).status, 404, 'no suite ran');
  for (const headers of [{ Origin: own }, { Origin: own.toUpperCase() }, { 'Sec-Fetch-Site': 'same-origin', Origin: own }, { 'Sec-Fetch-Site': 'none' }, {}, { Host: `localhost:${driver.port}`, Origin: `http://localhost:${driver.port}` }, { Host: 'LOAD:3005' }, { Host: 'lab-driver.internal' }, { Host: `[::1]:${driver.port}` }, { Host: os.hostname() }]) {
    const answer = await post(driver, '/runs/stop', headers);
    assert.strictEqual(answer.status, 409, `${JSON.stringify(headers)}: ${answer.text}`);
  }
  // A GET another site's page makes without reading it (an image, a no-cors fetch) is refused too; a link followed is not.
  assert.strictEqual((await request(`${driver.url}/runs/latest`, { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' } })).status, 403);
  assert.strictEqual((await request(`${driver.url}/`, { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' } })).status, 200, 'the live page opens from a link');
  // Prometheus and health checks reach the driver by whatever name they were given.
  for (const target of ['/healthz', '/metrics']) assert.strictEqual((await request(`${driver.url}${target}`, { headers: { Host: 'evil.example' } })).status, 200, target);
});

test("in Chromium, another site's page sending a simple POST /runs gets 403 and no run starts", { skip: findChromium() ? false : 'no chromium on this machine' }, async (t) => {
  const driver = await idleDriver(t);
  // The other site: a page on its own origin (localhost, another port) whose script posts to the driver without a
  // preflight, as a page a user happens to visit could.
  const page = `<!doctype html><script>
    window.sent = Promise.all(['/runs?suite=smoke', '/runs/stop'].map((p) =>
      fetch('http://127.0.0.1:${driver.port}' + p, { method: 'POST', mode: 'no-cors' }).then(() => 'sent', (e) => String(e))));
    // A read it cannot see the answer of, as an image would make it.
    window.read = fetch('http://127.0.0.1:${driver.port}/runs/latest', { mode: 'no-cors' }).then(() => 'sent', (e) => String(e));
  </script>`;
  const site = http.createServer((req, res) => res.end(page, 'utf8'));
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => site.close(resolve)));
  const browser = await launchBrowser();
  // Closed before the driver stops (the hooks above), which would otherwise wait for the browser's idle connections.
  try {
    await postFromOtherSite(browser, driver, site);
  } finally {
    await browser.close();
  }
  assert.strictEqual((await request(`${driver.url}/runs/latest`)).status, 404, 'no suite ran');
});

async function postFromOtherSite(browser, driver, site) {
  const tab = await browser.newPage();
  // The answers as the browser received them (the page itself sees an opaque response).
  const statuses = {};
  tab.on('response', (r) => {
    if (r.url().startsWith(driver.url)) statuses[new URL(r.url()).pathname] = r.status();
  });
  await tab.goto(`http://localhost:${site.address().port}/`, { timeout: BROWSER_TIMEOUT_MS });
  /* global window */
  assert.deepStrictEqual(await tab.evaluate(() => window.sent), ['sent', 'sent']);
  assert.strictEqual(await tab.evaluate(() => window.read), 'sent');
  // 403, not the 202 a run would get nor the 409 of a stop with nothing running nor the read's 404: the guard answered all.
  assert.deepStrictEqual(statuses, { '/runs': 403, '/runs/stop': 403, '/runs/latest': 403 });
}
