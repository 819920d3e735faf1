'use strict';
// The probe beside a heavy scenario, against real HTTP servers on port 0. Each server runs in a worker thread, so a
// blocked server loop does not block the load driver's own loop (which would make any client look slow).
const test = require('node:test');
const assert = require('node:assert');
const { Worker } = require('node:worker_threads');
const { sumOf } = require('@lab/test-kit');
const { runScenario } = require('../src/scenario/scenario');
const { createMetrics, PROBE_LATENCY, PROBE_LATENCY_BUCKETS } = require('../src/driver/metrics');
const { probeMaxRequests } = require('../src/scenario/probe');

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

/**
 * Runs the scenario with the probe observed into a fresh registry, reading the exporter's text every 100 ms meanwhile.
 * live: a reading taken while the scenario ran showed some of the probe's observations but not yet all of them.
 */
async function runObserved(scenario, url) {
  const metrics = createMetrics();
  const labels = { scenario: scenario.name, target: scenario.target };
  const count = async () => sumOf(await metrics.registry.metrics(), `${PROBE_LATENCY}_count`, labels);
  let running = true;
  const during = [];
  const reader = setInterval(async () => {
    const reading = await count();
    if (running) during.push(reading);
  }, 100);
  const outcome = await runScenario(scenario, url, { onProbeResponse: (seconds) => metrics.probeLatency.observe(labels, seconds) });
  running = false;
  clearInterval(reader);
  const text = await metrics.registry.metrics();
  const total = sumOf(text, `${PROBE_LATENCY}_count`, labels);
  const bucket = (le) => sumOf(text, `${PROBE_LATENCY}_bucket`, Object.assign({ le: String(le) }, labels));
  return { outcome, live: during.some((reading) => reading > 0 && reading < total), count: total, bucket };
}

// Every bound below compares numbers measured in the same run, side by side: no wall-clock constant, so a slow or
// loaded machine (node --test runs files in parallel) cannot break them. BLOCK_MS itself is only how long each heavy
// request takes on both servers.
test('the probe feels a blocked event loop and not one that keeps turning, and the histogram is observed live', async (t) => {
  const [blockingUrl, yieldingUrl] = await Promise.all([startServer(t, true), startServer(t, false)]);
  // 3 s: a probe can wait several blocks (the server may serve the heavy connections first), and the live check needs
  // answers while the scenario still runs.
  const [blocked, yielding] = await Promise.all([
    runObserved(heavy('blocking', { durationSeconds: 3 }), blockingUrl),
    runObserved(heavy('yielding', { durationSeconds: 3 }), yieldingUrl),
  ]);
  for (const { outcome, live, count } of [blocked, yielding]) {
    const probe = outcome.probe;
    assert.strictEqual(outcome.passed, true, outcome.problems.join());
    assert.ok(probe.requests > 0 && probe.requests <= probeMaxRequests(probe, 3), JSON.stringify(probe));
    assert.strictEqual(probe.errors, 0, JSON.stringify(probe));
    assert.strictEqual(count, probe.requests, 'one observation per probe response');
    assert.ok(live, `${outcome.scenario.name}: probe responses are observed while the scenario runs, not at its end`);
  }
  const [b, y] = [blocked.outcome, yielding.outcome];
  const report = JSON.stringify({ blocked: { heavy: b.result.latency, probe: b.probe }, yielding: { heavy: y.result.latency, probe: y.probe } });
  // The blocking server's heavy requests block its loop: the probe's longest wait is a good part of a heavy request.
  assert.ok(b.probe.latencyMs.max >= b.result.latency.p50 / 4, report);
  // The yielding server's heavy requests take as long, but its probe does not wait for them.
  assert.ok(y.probe.latencyMs.p50 * 3 <= y.result.latency.p50, report);
  // Side by side: the typical probe of the blocked server waits several times longer, and fewer probes get through
  // (autocannon's rate is a budget per second; a blocked server shows as slow probes, not as errors).
  assert.ok(b.probe.latencyMs.p50 >= 3 * Math.max(1, y.probe.latencyMs.p50), report);
  assert.ok(b.probe.requests < y.probe.requests, report);
  // The histogram holds seconds, as autocannon's milliseconds say: some observations are above the largest bucket
  // under half the blocked probe's p50, none above the first bucket past its max.
  const toBucket = (ms) => PROBE_LATENCY_BUCKETS.find((le) => le * 1000 > ms);
  const under = PROBE_LATENCY_BUCKETS.filter((le) => le * 1000 <= b.probe.latencyMs.p50 / 2).pop();
  assert.ok(under !== undefined && blocked.bucket(under) < blocked.count, `bucket le=${under}: ${blocked.bucket(under)} of ${blocked.count}; ${report}`);
  assert.strictEqual(blocked.bucket(toBucket(b.probe.latencyMs.max + 1) || '+Inf'), blocked.count, report);
});

test('the probe stops with its scenario and reports non-2xx without failing it', async (t) => {
  const url = await startServer(t, false);
  const durationSeconds = 60;
  const probe = { path: '/missing', ratePerSecond: 5 };
  const outcome = await runScenario(heavy('early-end', { durationSeconds, maxRequests: 10, probe }), url);
  assert.strictEqual(outcome.passed, true, outcome.problems.join());
  // maxRequests ended the scenario (its count, not its 60 s) ...
  assert.strictEqual(outcome.result.requests.total, 10, JSON.stringify(outcome.result.requests));
  assert.ok(outcome.result.duration < durationSeconds, `took ${outcome.result.duration} s`);
  // ... and the probe with it: its count fits its rate over the scenario's own measured duration, with a wide margin
  // (a probe left to its own 60 s would send up to 305).
  const bound = probe.ratePerSecond * (2 * Math.ceil(outcome.result.duration) + 2);
  assert.ok(outcome.probe.requests > 0 && outcome.probe.requests <= bound, `${outcome.probe.requests} probes in ${outcome.result.duration} s (at most ${bound})`);
  assert.strictEqual(outcome.probe.non2xx, outcome.probe.requests);
  assert.deepStrictEqual(Object.keys(outcome.probe), ['path', 'ratePerSecond', 'connections', 'timeoutSeconds', 'requests', 'latencyMs', 'errors', 'timeouts', 'non2xx']);
  assert.deepStrictEqual(Object.keys(outcome.probe.latencyMs), ['p50', 'p90', 'p99', 'max']);
  const without = await runScenario(heavy('no-probe', { durationSeconds: 1, maxRequests: 4, probe: undefined }), url);
  assert.strictEqual('probe' in without, false);
});
