'use strict';
// Seed 004's routes on a real server: the same validated answer from both, bodies refused before any work, and every
// pool fault (full queue, timeout, crashed worker, departed client) answered while the service keeps serving.
const test = require('node:test');
const assert = require('node:assert');
const { startService, sumOf } = require('../../../node-kit/testing');
const { makeService } = require('../src/service');
const { ROUTE } = require('../src/offload');
const { processData, fibonacciIterative } = require('../src/offload/process-data');
const { testData } = require('../src/offload/body-generator');
const { cgroupQuota } = require('../../../node-kit/cpus');
const { createAdmission, unitsOf } = require('../src/offload/admission');
const { sendRaw } = require('../../../tests/contract/bad-requests');

// ~300 ms of CPU (30 × Fibonacci(30)): faults that need a task still running when they strike.
const HEAVY = testData({ items: 30, fibonacciN: 30 });

const post = (url, body, init = {}) =>
  fetch(url, Object.assign({ method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }, init));

async function metricsOf(server) {
  return (await fetch(`${server.url}/metrics`)).text();
}

/** Polls until check(metrics text) holds, failing after timeoutMs. */
async function waitForMetrics(server, check, what, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await metricsOf(server);
    if (check(text)) return text;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function withService(config, body) {
  const service = makeService({ offload: config });
  const server = await startService(service);
  try {
    await body(server, service);
  } finally {
    await server.close();
  }
}

async function expectServing(server) {
  const response = await post(`${server.url}${ROUTE.optimized}`, testData({ items: 2, fibonacciN: 10 }));
  assert.strictEqual(response.status, 200);
  assert.strictEqual((await response.json()).validated, true);
}

test('both routes return the same validated result for the generated test data', async () => {
  await withService({ workers: 2 }, async (server) => {
    const body = await (await fetch(`${server.url}/api/test-data`)).json();
    assert.deepStrictEqual(body, testData(), 'GET /api/test-data serves the generator defaults');
    const [optimized, unoptimized] = await Promise.all([post(`${server.url}${ROUTE.optimized}`, body), post(`${server.url}${ROUTE.unoptimized}`, body)]);
    const a = await optimized.json();
    const b = await unoptimized.json();
    assert.strictEqual(a.validated, true);
    assert.strictEqual(b.validated, true);
    assert.strictEqual(a.hash, b.hash);
    assert.deepStrictEqual(a.result, b.result);
    assert.deepStrictEqual(a.result, processData(body, fibonacciIterative));
    assert.strictEqual(a.result.items[0].fibonacci, 196418, 'Fibonacci(27)');
    assert.ok(a.threadId > 0 && a.waitMs >= 0, 'the optimized answer ran in a worker');
    assert.strictEqual(b.waitMs, null);
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_task_run_seconds_count', { route: 'optimized' }), 1);
    assert.strictEqual(sumOf(metrics, 'lab_offload_task_run_seconds_count', { route: 'unoptimized' }), 1);
    assert.strictEqual(sumOf(metrics, 'lab_offload_task_wait_seconds_count', {}), 1);
    assert.strictEqual(sumOf(metrics, 'lab_offload_pool_size', {}), 2);
    assert.strictEqual(sumOf(metrics, 'lab_offload_workers', {}), 2);
    assert.strictEqual(sumOf(metrics, 'lab_offload_queue_length', {}), 0);
    const workerHeap = { used: sumOf(metrics, 'lab_offload_worker_heap_bytes', { kind: 'used' }), total: sumOf(metrics, 'lab_offload_worker_heap_bytes', { kind: 'total' }) };
    assert.ok(workerHeap.used > 0 && workerHeap.used <= workerHeap.total, `the two workers' heaps are reported: ${JSON.stringify(workerHeap)}`);
  });
});

test('test data is deterministic, configurable and its parameters are checked', async () => {
  await withService({ workers: 1 }, async (server) => {
    const a = await (await fetch(`${server.url}/api/test-data?items=5&fibonacciN=12&seed=9`)).json();
    assert.deepStrictEqual(a, testData({ items: 5, fibonacciN: 12, seed: 9 }));
    assert.notDeepStrictEqual(testData({ seed: 9 }).items, testData({ seed: 10 }).items);
    for (const query of ['items=0', 'fibonacciN=31', 'items=x', 'size=3']) {
      const response = await fetch(`${server.url}/api/test-data?${query}`);
      assert.strictEqual(response.status, 400, query);
      assert.match((await response.json()).error, /must|unknown/, query);
    }
  });
});

test('invalid and oversized bodies are refused before any work is queued', async () => {
  await withService({ workers: 1 }, async (server) => {
    const item = { id: 1, name: 'a', value: 1 };
    const invalid = [
      ['no JSON content type', 'fibonacciN=3', { headers: { 'content-type': 'text/plain' } }],
      ['malformed JSON', '{"fibonacciN": 3,'],
      ['an array', [item]],
      ['fibonacciN too large', { fibonacciN: 31, items: [item] }],
      ['fibonacciN not an integer', { fibonacciN: 2.5, items: [item] }],
      ['no items', { fibonacciN: 3, items: [] }],
      ['too many items', { fibonacciN: 3, items: Array.from({ length: 101 }, () => item) }],
      ['a negative value', { fibonacciN: 3, items: [{ id: 1, name: 'a', value: -1 }] }],
      ['an item without a name', { fibonacciN: 3, items: [{ id: 1, value: 1 }] }],
    ];
    for (const route of [ROUTE.optimized, ROUTE.unoptimized]) {
      for (const [what, body, init] of invalid) {
        const response = await post(`${server.url}${route}`, body, init);
        assert.strictEqual(response.status, 400, `${route}: ${what}`);
        assert.strictEqual(typeof (await response.json()).error, 'string', what);
      }
      const oversized = await post(`${server.url}${route}`, JSON.stringify({ fibonacciN: 1, items: [item], pad: 'x'.repeat(70 * 1024) }));
      assert.strictEqual(oversized.status, 413);
      assert.strictEqual((await oversized.json()).limitBytes, 64 * 1024);
      // 50 MB announced, a few bytes sent: refused from its length alone, and the connection closes without the rest.
      const announced = await sendRaw(Number(new URL(server.url).port), { method: 'POST', target: route, body: '{"fibonacciN":', declaredLength: 50 * 1024 * 1024 });
      assert.strictEqual(announced.status, 413);
      assert.strictEqual(announced.headers.connection, 'close');
    }
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', {}), 0, 'no task was counted');
    assert.strictEqual(sumOf(metrics, 'lab_offload_task_run_seconds_count', {}), 0, 'no work ran');
    await expectServing(server);
  });
});

test('a full queue answers 503 with Retry-After and the service keeps serving', async () => {
  await withService({ workers: 1, maxQueue: 1 }, async (server, service) => {
    const running = post(`${server.url}${ROUTE.optimized}`, HEAVY);
    await until(() => service.pool.admitted === 1 && service.pool.queueSize === 0); // a worker has it
    const queued = post(`${server.url}${ROUTE.optimized}`, HEAVY);
    await waitForMetrics(server, (text) => sumOf(text, 'lab_offload_queue_length', {}) === 1, 'one queued task');
    const refused = await post(`${server.url}${ROUTE.optimized}`, HEAVY);
    assert.strictEqual(refused.status, 503);
    assert.strictEqual(refused.headers.get('retry-after'), '1');
    assert.match((await refused.json()).error, /queued/);
    for (const response of await Promise.all([running, queued])) assert.strictEqual((await response.json()).validated, true);
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'queue-full' }), 1);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'ok' }), 2);
    await expectServing(server);
  });
});

test('a task that cannot finish before its deadline is refused at once, before it is queued', async () => {
  await withService({ workers: 1, taskTimeoutMs: 200 }, async (server) => {
    // What the pool learns its speed from: a small task (a thousandth of a maximal one's calls, or less).
    const small = await post(`${server.url}${ROUTE.optimized}`, testData({ items: 1, fibonacciN: 20 }));
    assert.strictEqual(small.status, 200);
    const refused = await post(`${server.url}${ROUTE.optimized}`, testData({ items: 100, fibonacciN: 30 }));
    assert.strictEqual(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const body = await refused.json();
    assert.match(body.error, /would not finish within 200 ms/);
    assert.ok(body.estimatedRunMs > 200, JSON.stringify(body));
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'would-time-out' }), 1);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'timeout' }), 0, 'the refused task never ran');
    await expectServing(server);
  });
});

test('admission counts the work queued ahead of a task', () => {
  const admission = createAdmission({ workers: 2, taskTimeoutMs: 1000 });
  assert.strictEqual(admission.fits(1e12), true, 'nothing learnt yet: everything fits');
  admission.admit(1000);
  admission.done(1000, 100); // 0.1 ms a unit
  assert.deepStrictEqual(admission.estimate(5000), { waitMs: 0, runMs: 500 });
  assert.strictEqual(admission.fits(10000), true); // 1000 ms of its own
  assert.strictEqual(admission.fits(10001), false);
  admission.admit(10000); // 1000 ms ahead of the next, spread over 2 workers
  assert.deepStrictEqual(admission.estimate(5000), { waitMs: 500, runMs: 500 });
  assert.strictEqual(admission.fits(5000), true);
  assert.strictEqual(admission.fits(5001), false);
  admission.done(10000); // it did not run to the end (timeout, client gone): nothing learnt
  assert.deepStrictEqual(admission.estimate(5000), { waitMs: 0, runMs: 500 });
  assert.strictEqual(unitsOf({ fibonacciN: 2, items: [{}, {}] }), 2 * 3, 'F(2) makes 3 calls');
});

test('a task past its timeout is stopped, answered 503, and its worker replaced', async () => {
  await withService({ workers: 1, taskTimeoutMs: 100 }, async (server) => {
    const response = await post(`${server.url}${ROUTE.optimized}`, testData({ items: 100, fibonacciN: 30 })); // ~1 s
    assert.strictEqual(response.status, 503);
    assert.match((await response.json()).error, /within 100 ms/);
    // Answered at the deadline, not after the work: the task never completed.
    assert.strictEqual(sumOf(await metricsOf(server), 'lab_offload_task_run_seconds_count', { route: 'optimized' }), 0);
    await waitForMetrics(server, (text) => sumOf(text, 'lab_offload_workers', {}) === 1, 'a replacement worker');
    assert.strictEqual(sumOf(await metricsOf(server), 'lab_offload_tasks_total', { outcome: 'timeout' }), 1);
    await expectServing(server);
  });
});

test('a worker that dies mid-task fails only its request; a new worker takes over', async () => {
  await withService({ workers: 1 }, async (server, service) => {
    const inFlight = post(`${server.url}${ROUTE.optimized}`, HEAVY);
    await until(() => service.pool.admitted === 1 && service.pool.queueSize === 0); // a worker has it
    const [worker] = service.pool.threads;
    await worker.terminate(); // what an abort() or a fatal error inside the worker looks like from outside
    const response = await inFlight;
    assert.strictEqual(response.status, 500);
    assert.match((await response.json()).error, /worker running the task failed/);
    await waitForMetrics(server, (text) => sumOf(text, 'lab_offload_workers', {}) === 1, 'a replacement worker');
    assert.notStrictEqual(service.pool.threads[0], worker);
    assert.strictEqual(sumOf(await metricsOf(server), 'lab_offload_tasks_total', { outcome: 'failed' }), 1);
    await expectServing(server);
  });
});

test('a client that leaves cancels its task', async () => {
  await withService({ workers: 1 }, async (server, service) => {
    const leaving = new AbortController();
    const request = post(`${server.url}${ROUTE.optimized}`, testData({ items: 100, fibonacciN: 30 }), { signal: leaving.signal });
    await until(() => service.pool.admitted === 1); // the task is in the pool
    leaving.abort();
    await assert.rejects(request, { name: 'AbortError' });
    await waitForMetrics(server, (text) => sumOf(text, 'lab_offload_tasks_total', { outcome: 'client-gone' }) === 1, 'the cancelled task');
    await expectServing(server);
  });
});

/** Resolves once check() holds (polled; nothing is asserted about how long it takes). */
async function until(check) {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** nodejs_eventloop_lag_max_seconds since the last scrape (prom-client resets it at every scrape). */
async function lagMaxSinceLastScrape(server) {
  return sumOf(await metricsOf(server), 'nodejs_eventloop_lag_max_seconds', {});
}

// Responsiveness is this seed's feature, so it is checked as properties no machine's speed or load can break: an
// ordering (with the work in workers, a /healthz sent while it runs is answered before it ends) and a ratio measured
// in the same test (the main thread's longest lag is far longer while the same work runs on it).
test('the main thread answers /healthz while workers run, and lags while the unoptimized route computes', async () => {
  await withService({ workers: 2 }, async (server, service) => {
    const finished = [];
    await lagMaxSinceLastScrape(server);
    const offloaded = [1, 2, 3].map((i) => post(`${server.url}${ROUTE.optimized}`, HEAVY).then(() => finished.push(`task ${i}`)));
    await until(() => service.pool.admitted === 3);
    assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200);
    finished.push('healthz');
    await Promise.all(offloaded);
    assert.strictEqual(finished[0], 'healthz', `answered in the order ${finished.join(', ')}`);
    const offloadedLag = await lagMaxSinceLastScrape(server);

    const blocking = await post(`${server.url}${ROUTE.unoptimized}`, HEAVY);
    const answer = await blocking.json();
    const blockedLag = await lagMaxSinceLastScrape(server);
    // The event-loop monitor's timer waits out the whole computation: its longest lag is at least that long.
    assert.ok(blockedLag * 1000 >= answer.ms * 0.9, `lag ${blockedLag} s beside ${answer.ms} ms of main-thread work`);
    assert.ok(blockedLag >= 3 * offloadedLag, `main-thread lag ${blockedLag} s with the work on it, ${offloadedLag} s with it in workers`);
  });
});

test('the pool is sized from the cgroup quota when there is one', () => {
  assert.strictEqual(cgroupQuota(() => 'max 100000\n'), Infinity);
  assert.strictEqual(cgroupQuota(() => '200000 100000\n'), 2);
  assert.strictEqual(cgroupQuota(() => '150000 100000\n'), 2);
  assert.strictEqual(cgroupQuota(() => '50000 100000\n'), 1);
  assert.strictEqual(cgroupQuota(() => { throw new Error('ENOENT'); }), Infinity);
});
