'use strict';
// The concurrency cap and a responsive loop while transfer runs are in flight, over real HTTP on port 0. node-kit
// reads MAX_CONCURRENT_RUNS when the service is created, and node --test runs each file in its own process, so
// setting it here touches no other test. Orderings, never durations: the checks hold on a machine of any speed.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { startService, request, sumOf, until } = require('@lab/test-kit');

const MAX_RUNS = 2;
process.env.MAX_CONCURRENT_RUNS = String(MAX_RUNS);
const { createWasmRunner } = require('../lib/server');

// ~105 KB of JSON each way per round trip: a run of many of them spans many slices, whatever the machine.
const LONG_RUN = '/run/transfer?case=numbers_10000&iterations=1000';
const LONGEST_RUN = '/run/transfer?case=numbers_10000&iterations=10000';

/**
 * Resolves once the server has received `count` more /run requests. The app's listener was registered when the server
 * was created, so it has dispatched each request (express routes synchronously: the run has taken its slot and
 * started) before this listener sees it.
 */
function runsReceived(server, count) {
  return new Promise((resolve) => {
    let seen = 0;
    const onRequest = (req) => {
      if (!req.url.startsWith('/run/')) return;
      if (++seen < count) return;
      server.server.removeListener('request', onRequest);
      resolve();
    };
    server.server.on('request', onRequest);
  });
}

test('transfer runs under a concurrency cap of 2', async (t) => {
  const server = await startService(await createWasmRunner());
  t.after(() => server.close());
  const metrics = async () => (await request(`${server.url}/metrics`)).text;

  await t.test('while the allowed runs are in flight, another gets 503 with Retry-After and /healthz answers first, counting them', async () => {
    const arrived = [];
    const accepted = runsReceived(server, MAX_RUNS);
    const longRuns = Array.from({ length: MAX_RUNS }, (_, i) => request(`${server.url}${LONG_RUN}&seed=${i + 1}`).then((res) => {
      arrived.push(`run ${i}`);
      return res;
    }));
    await accepted;

    const extra = await request(`${server.url}/run/transfer?iterations=1`);
    arrived.push('503');
    const health = await request(`${server.url}/healthz`);
    arrived.push('healthz');

    assert.strictEqual(extra.status, 503, extra.text);
    assert.ok(Number(extra.headers['retry-after']) > 0, `Retry-After: ${extra.headers['retry-after']}`);
    assert.strictEqual(typeof extra.json.error, 'string');
    assert.strictEqual(health.status, 200);
    assert.deepStrictEqual(health.json, { status: 'ok', runs: MAX_RUNS }, '/healthz counts the runs in progress');

    for (const res of await Promise.all(longRuns)) {
      assert.strictEqual(res.status, 200, res.text);
      assert.strictEqual(res.json.validated, true, res.text);
      assert.strictEqual(res.json.iterations, 1000);
      assert.ok(res.json.yields > 0, res.text);
    }
    assert.deepStrictEqual(arrived.slice(0, 2), ['503', 'healthz'], `answers in the order ${arrived.join(', ')}`);
    // The slots are free again.
    assert.strictEqual((await request(`${server.url}/run/transfer?iterations=1`)).status, 200);
  });

  await t.test('a client that disconnects interrupts its run, and the service keeps serving', async () => {
    const interruptedBefore = sumOf(await metrics(), 'lab_runs_total', { workload: 'transfer', outcome: 'interrupted' });
    const accepted = runsReceived(server, 1);
    const client = http.request(`${server.url}${LONGEST_RUN}`, { agent: false });
    client.on('error', () => {}); // the socket hang-up this test causes
    client.end();
    await accepted;
    client.destroy();

    await until('the interrupted run counted', 60000, async () => {
      const interrupted = sumOf(await metrics(), 'lab_runs_total', { workload: 'transfer', outcome: 'interrupted' });
      return { done: interrupted === interruptedBefore + 1, why: `lab_runs_total{outcome="interrupted"} is ${interrupted}` };
    });
    const after = await metrics();
    assert.strictEqual(sumOf(after, 'lab_runs_total', { workload: 'transfer', outcome: 'error' }), 0);
    assert.deepStrictEqual((await request(`${server.url}/healthz`)).json, { status: 'ok', runs: 0 }, 'the interrupted run is no longer counted');
    // Both slots are free: the interrupted run gave its slot back.
    const next = await Promise.all([1, 2].map((seed) => request(`${server.url}/run/transfer?case=numbers_10000&iterations=20&seed=${seed}`)));
    for (const res of next) {
      assert.strictEqual(res.status, 200, res.text);
      assert.strictEqual(res.json.validated, true);
    }
  });
});
