'use strict';
// The probe beside a heavy scenario, against real HTTP servers on port 0. Each server runs in a worker thread, so a
// blocked server loop does not block the load driver's own loop (which would make any client look slow).
const test = require('node:test');
const assert = require('node:assert');
const { Worker } = require('node:worker_threads');
const { sumOf } = require('../../node-kit/testing');
const { runScenario } = require('../src/scenario');
const { createMetrics, PROBE_LATENCY } = require('../src/metrics');
const { probeMaxRequests } = require('../src/probe');

const BLOCK_MS = 200;

// GET /work takes BLOCK_MS: busy-waiting (the loop is blocked) or waiting on a timer (the loop keeps turning).
const SERVER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const server = http.createServer((req, res) => {
  const answer = (status) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end('{"status":"ok"}'); };
  if (req.url === '/healthz') return answer(200);
  if (req.url !== '/work') return answer(404);
  if (workerData.blocking) {
    const end = Date.now() + workerData.blockMs;
    while (Date.now() < end);
    return answer(200);
  }
  setTimeout(() => answer(200), workerData.blockMs);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

async function startServer(t, blocking) {
  const worker = new Worker(SERVER, { eval: true, workerData: { blocking, blockMs: BLOCK_MS } });
  t.after(() => worker.terminate());
  const port = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return `http://127.0.0.1:${port}`;
}

const heavy = (name, changes) => Object.assign({ name, target: 'local', path: '/work', connections: 2, durationSeconds: 2, maxRequests: 1000, expect: 'status', probe: { path: '/healthz', ratePerSecond: 20 } }, changes);

/** Runs the scenario with the probe observed into a fresh registry, reading the exporter's text every 100 ms meanwhile. */
async function runObserved(scenario, url) {
  const metrics = createMetrics();
  const labels = { scenario: scenario.name, target: scenario.target };
  const count = async () => sumOf(await metrics.registry.metrics(), `${PROBE_LATENCY}_count`, labels);
  const readings = [];
  const reader = setInterval(async () => readings.push({ at: Date.now(), count: await count() }), 100);
  const outcome = await runScenario(scenario, url, { onProbeResponse: (seconds) => metrics.probeLatency.observe(labels, seconds) });
  const ended = Date.now();
  clearInterval(reader);
  const text = await metrics.registry.metrics();
  // Live: the exporter showed probe observations well before the scenario ended, not only at its end.
  const live = readings.some((r) => r.count > 0 && r.at < ended - 300);
  return { outcome, live, count: await count(), fast: sumOf(text, `${PROBE_LATENCY}_bucket`, Object.assign({ le: '0.05' }, labels)) };
}

test('the probe feels a blocked event loop, and the histogram is observed live', async (t) => {
  const url = await startServer(t, true);
  // 3 s: a probe can wait several blocks (the server may serve the heavy connections first), so the first answer can
  // take about 1 s; the live check needs answers well before the end.
  const { outcome, live, count, fast } = await runObserved(heavy('blocking', { durationSeconds: 3 }), url);
  assert.strictEqual(outcome.passed, true, outcome.problems.join());
  const probe = outcome.probe;
  assert.ok(probe.requests > 0 && probe.requests <= probeMaxRequests(probe, 3), JSON.stringify(probe));
  assert.ok(probe.latencyMs.max >= BLOCK_MS / 2, `probe max ${probe.latencyMs.max} ms against a server blocked ${BLOCK_MS} ms per request`);
  assert.strictEqual(probe.errors, 0);
  assert.ok(live, 'probe responses are observed while the scenario runs, not at its end');
  assert.strictEqual(count, probe.requests, 'one observation per probe response');
  assert.ok(fast < count, 'some probe responses are slower than 50 ms');
});

test('against a server whose loop keeps turning, the probe stays fast', async (t) => {
  const url = await startServer(t, false);
  const { outcome, count } = await runObserved(heavy('yielding'), url);
  assert.strictEqual(outcome.passed, true, outcome.problems.join());
  assert.ok(outcome.result.latency.p50 >= BLOCK_MS * 0.9, 'the heavy requests do take their time');
  assert.ok(outcome.probe.requests >= 20, JSON.stringify(outcome.probe));
  assert.ok(outcome.probe.latencyMs.max < BLOCK_MS / 2, `probe max ${outcome.probe.latencyMs.max} ms`);
  assert.strictEqual(count, outcome.probe.requests);
});

test('the probe stops with its scenario and reports non-2xx without failing it', async (t) => {
  const url = await startServer(t, false);
  const started = Date.now();
  // 10 requests on 2 connections take about 1 s of the 10 s allowed: the scenario, and so the probe, end early.
  const outcome = await runScenario(heavy('early-end', { durationSeconds: 10, maxRequests: 10, probe: { path: '/missing', ratePerSecond: 5 } }), url);
  assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
  assert.strictEqual(outcome.passed, true, outcome.problems.join());
  assert.ok(outcome.probe.requests > 0, JSON.stringify(outcome.probe));
  assert.strictEqual(outcome.probe.non2xx, outcome.probe.requests);
  assert.deepStrictEqual(Object.keys(outcome.probe), ['path', 'ratePerSecond', 'connections', 'timeoutSeconds', 'requests', 'latencyMs', 'errors', 'timeouts', 'non2xx']);
  assert.deepStrictEqual(Object.keys(outcome.probe.latencyMs), ['p50', 'p90', 'p99', 'max']);
  const without = await runScenario(heavy('no-probe', { durationSeconds: 1, maxRequests: 4, probe: undefined }), url);
  assert.strictEqual('probe' in without, false);
});
