'use strict';
// The driver's HTTP face, over real HTTP to src/main.js on port 0: every bad request of the lab's shared list and of
// its own routes gets the contract's JSON answer and the driver keeps serving; clients stalled in their request head
// neither stop /healthz nor stay forever. Counts and orderings only, no durations.
const test = require('node:test');
const assert = require('node:assert');
const { request, until, tempDir } = require('@lab/test-kit');
const { edgeCases, checkCases, checkPipeline, healthzThenBrokenHeads } = require('@lab/test-kit/bad-requests');
const { holdSlowConnections } = require('@lab/test-kit/slow-clients');
const { startDriver, stopDriver } = require('./driver-process');

const STALLED = 200;

/** An idle driver (the shipped suites, nothing started) on port 0; env overrides its settings. */
async function idleDriver(t, env) {
  const resultsDir = tempDir('load-face-');
  const driver = await startDriver(Object.assign({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', RESULTS_DIR: resultsDir }, env));
  t.after(() => stopDriver(driver));
  return driver;
}

const parameter = (name) => ['parameter', (v) => v === name];

// The driver's own routes: POST /runs takes suite (one of the suites) and loop (0 or 1), once each, and nothing else.
function ownCases() {
  return [
    { name: 'an unknown suite', method: 'POST', target: '/runs?suite=nope', status: 400, detail: parameter('suite') },
    { name: 'no suite', method: 'POST', target: '/runs?loop=1', status: 400, detail: parameter('suite') },
    { name: 'loop out of range', method: 'POST', target: '/runs?suite=smoke&loop=2', status: 400, detail: parameter('loop') },
    { name: 'loop not a number', method: 'POST', target: '/runs?suite=smoke&loop=yes', status: 400, detail: parameter('loop') },
    { name: 'the suite twice', method: 'POST', target: '/runs?suite=smoke&suite=smoke', status: 400, detail: parameter('suite') },
    { name: 'an unknown parameter', method: 'POST', target: '/runs?suite=smoke&nope=1', status: 400, detail: parameter('nope') },
    { name: 'a parameter named constructor', method: 'POST', target: '/runs?suite=smoke&constructor=1', status: 400, detail: parameter('constructor') },
    { name: 'a parameter to stop', method: 'POST', target: '/runs/stop?suite=smoke', status: 400, detail: parameter('suite') },
    { name: 'GET on POST /runs', method: 'GET', target: '/runs', status: 405, detail: ['allowed', (v) => JSON.stringify(v) === '["POST"]'] },
    { name: 'GET on POST /runs/stop', method: 'GET', target: '/runs/stop', status: 405, detail: ['allowed', (v) => JSON.stringify(v) === '["POST"]'] },
    { name: 'POST on GET /runs/latest', method: 'POST', target: '/runs/latest', status: 405, detail: ['allowed', (v) => JSON.stringify(v) === '["GET"]'] },
    { name: 'a trailing slash on /runs', method: 'POST', target: '/runs/?suite=smoke', status: 404, detail: ['routes', (v) => Array.isArray(v) && v.includes('POST /runs/stop')] },
    { name: 'an escaped slash in /runs/stop', method: 'POST', target: '/runs%2Fstop', status: 404 },
    { name: 'stop with nothing running', method: 'POST', target: '/runs/stop', status: 409, detail: ['state', (v) => v === null] },
  ];
}

test('every bad request gets the contract\'s JSON answer, and the driver keeps serving after each', async (t) => {
  const driver = await idleDriver(t);
  for (const testCase of edgeCases().concat(ownCases())) {
    assert.deepStrictEqual(await checkCases(driver.port, [testCase]), []);
    const health = await request(`${driver.url}/healthz`);
    assert.strictEqual(health.status, 200, `/healthz after ${testCase.name}: ${health.text}`);
  }
  const notFound = await request(`${driver.url}/nope`);
  assert.deepStrictEqual(notFound.json.routes, ['GET /healthz', 'GET /metrics', 'GET /runs/latest', 'POST /runs', 'POST /runs/stop', 'POST /attach', 'PUT /documents', 'GET /documents', 'GET /', 'GET /live/page.js', 'GET /live/upload.js', 'GET /live/attach.js', 'GET /live/report.css', 'GET /live/page.css', 'GET /live/uplot.js', 'GET /live/uplot.css', 'GET /live/state', 'GET /live/series', 'GET /live/runs', 'GET /live/table', 'GET /live/compare', 'GET /results/:run/:file']);
  assert.strictEqual(driver.exitCode, null, 'the driver is still running');
});

test('a broken head pipelined after GET /healthz: the 200 first, then the 400, then the close', async (t) => {
  const driver = await idleDriver(t);
  for (const bytes of healthzThenBrokenHeads()) assert.deepStrictEqual(await checkPipeline(driver.port, bytes, [200]), [], JSON.stringify(bytes));
  assert.strictEqual((await request(`${driver.url}/healthz`)).status, 200);
});

/**
 * Like test-kit/slow-clients.js' holdSlowConnections (count connections that each send the start of a request
 * head and nothing more), keeping the sockets, so that a test can read what the driver answered each.
 */
test(`${STALLED} connections stalled in their request head do not stop /healthz, nor a clean SIGTERM`, async (t) => {
  // Timeouts far beyond the test, so the stalled connections are certainly still open when /healthz answers.
  const driver = await idleDriver(t, { HEADERS_TIMEOUT_MS: '3600000', REQUEST_TIMEOUT_MS: '3600000' });
  t.after((await holdSlowConnections(driver.port, STALLED)).release);
  const health = await request(`${driver.url}/healthz`);
  assert.strictEqual(health.status, 200, health.text);
  assert.deepStrictEqual(health.json, { status: 'ok' });
  // SIGTERM closes them (they carry no request yet) and exits 0, instead of waiting for them until its forced exit (1).
  assert.strictEqual(await stopDriver(driver), 0);
});

test('the driver cuts stalled request heads after HEADERS_TIMEOUT_MS with a JSON 408', async (t) => {
  const driver = await idleDriver(t, { HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' });
  const { sockets, release } = await holdSlowConnections(driver.port, STALLED);
  t.after(release);
  await until('every stalled connection closed by the driver', 60000, async () => {
    const open = sockets.filter((s) => !s.closed).length;
    return { done: open === 0, why: `${open} still open` };
  });
  const answers = sockets.map((s) => /^HTTP\/1\.1 (\d{3})[^]*\r\n\r\n(.*)$/.exec(s.received));
  assert.ok(answers.every((a) => a && a[1] === '408' && typeof JSON.parse(a[2]).error === 'string'), sockets[0].received);
  assert.strictEqual((await request(`${driver.url}/healthz`)).status, 200);
});
