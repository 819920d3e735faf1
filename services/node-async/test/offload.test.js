'use strict';
// The worker-offload experiment's routes on a real server: the same validated answer from both, bodies refused before
// any work, and every pool fault (full queue, timeout, crashed worker, departed client) answered while the service
// keeps serving.
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { startService, sumOf } = require('@lab/test-kit');
const { makeService } = require('../src/service');
const { ROUTE } = require('../src/offload');
const { processData, fibonacciIterative } = require('../src/offload/process-data');
const { testData } = require('../src/offload/body-generator');
const { cgroupQuota } = require('@lab/node-kit/cpus');
const { createAdmission, unitsOf, PROBE_AFTER_REFUSALS } = require('../src/offload/admission');
const { sendRaw } = require('@lab/test-kit/bad-requests');

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

/**
 * Posts body to the optimized route until it is answered 200, and returns that answer. A 503 "did not finish within"
 * is retried (up to 50 times): with the short deadlines these tests set, a task given to a worker still starting (the
 * first one, or the replacement of one stopped) can miss its deadline on a loaded machine, whereas a warm worker
 * finishes it in a thousandth of it. Any other answer fails at once.
 */
async function servedEventually(server, body) {
  for (let attempt = 1; ; attempt++) {
    const response = await post(`${server.url}${ROUTE.optimized}`, body);
    if (response.status === 200) return response;
    const text = await response.text();
    if (response.status !== 503 || !/did not finish within/.test(text) || attempt === 50) assert.fail(`HTTP ${response.status} after ${attempt} tries: ${text}`);
  }
}

async function expectServing(server) {
  const response = await servedEventually(server, testData({ items: 2, fibonacciN: 10 }));
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
    // What the pool learns its speed from: a small task (a thousandth of a maximal one's calls), but large enough
    // that its overhead does not count (cost-model.js).
    await servedEventually(server, testData({ items: 1, fibonacciN: 25 }));
    const timeoutsBefore = sumOf(await metricsOf(server), 'lab_offload_tasks_total', { outcome: 'timeout' });
    const refused = await post(`${server.url}${ROUTE.optimized}`, testData({ items: 100, fibonacciN: 30 }));
    assert.strictEqual(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const body = await refused.json();
    assert.match(body.error, /would not finish within 200 ms/);
    assert.ok(body.estimatedRunMs > 200, JSON.stringify(body));
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'would-time-out' }), 1);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'timeout' }), timeoutsBefore, 'the refused task never ran');
    await expectServing(server);
  });
});

test('a tiny task does not shut the optimized route: the default body is still admitted after it', async () => {
  await withService({ workers: 1 }, async (server) => {
    const tiny = testData({ items: 1, fibonacciN: 0 }); // one unit: all overhead
    for (const body of [tiny, testData(), tiny, tiny, testData()]) {
      const response = await post(`${server.url}${ROUTE.optimized}`, body);
      const answer = await response.json();
      assert.strictEqual(response.status, 200, `fibonacciN ${body.fibonacciN}: ${JSON.stringify(answer)}`);
      assert.strictEqual(answer.validated, true);
    }
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { route: 'optimized', outcome: 'ok' }), 5);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { outcome: 'would-time-out' }), 0);
  });
});

// The admission unit tests feed measurements straight in, so they are exact on any machine. The default body is
// 13 348 041 units, ~50-110 ms on this lab's machine: 5 ns a unit here.
const DEFAULT_UNITS = unitsOf(testData());
const MAXIMAL_UNITS = unitsOf(testData({ items: 100, fibonacciN: 30 }));
const MS_PER_UNIT = 5e-6;
const refused = (err) => err.status === 503 && err.outcome === 'would-time-out' && /OFFLOAD_TASK_TIMEOUT_MS/.test(err.message);

function assertNear(actual, expected, message = '', tolerance = 1e-9) {
  assert.ok(Math.abs(actual - expected) <= tolerance * Math.abs(expected), `${actual}, expected ${expected}. ${message}`);
}

/** A task of `units` admitted, then done after runMs. */
function learn(admission, units, runMs) {
  admission.admit(units);
  admission.done(units, runMs);
}

test('admission counts the work queued ahead of a task', () => {
  const admission = createAdmission({ workers: 2, taskTimeoutMs: 1000 });
  assert.strictEqual(admission.estimate(1e12), null, 'nothing learnt yet');
  assert.deepStrictEqual(admission.admit(1e12), { probe: false }, 'nothing learnt yet: everything fits');
  admission.done(1e12); // it did not run to the end (timeout, client gone): nothing learnt
  assert.strictEqual(admission.estimate(1e12), null);
  learn(admission, 1e6, 100); // 0.1 µs a unit
  assert.deepStrictEqual(admission.estimate(5e6), { waitMs: 0, runMs: 500 });
  assert.deepStrictEqual(admission.admit(1e7), { probe: false }, '1000 ms of its own: fits');
  assert.deepStrictEqual(admission.estimate(5e6), { waitMs: 500, runMs: 500 }, '1000 ms admitted ahead, over 2 workers');
  assert.throws(() => admission.admit(5e6 + 1), refused);
  admission.done(1e7);
  assert.throws(() => admission.admit(1e7 + 1), refused);
  assert.strictEqual(unitsOf({ fibonacciN: 2, items: [{}, {}] }), 2 * 3, 'F(2) makes 3 calls');
  assert.strictEqual(DEFAULT_UNITS, 21 * (2 * 317811 - 1), '21 items of Fibonacci(27)');
});

test('admission: tiny tasks, however many, teach the per-task overhead and not the cost per unit', () => {
  const admission = createAdmission({ workers: 1, taskTimeoutMs: 8000 });
  // fibonacciN 0 is one unit and ~10 µs of overhead; as a cost per unit that made the default body 133 s.
  for (let i = 0; i < 1000; i++) learn(admission, 1, 0.01);
  assert.strictEqual(admission.estimate(DEFAULT_UNITS), null, 'no cost per unit learnt from tiny tasks');
  learn(admission, DEFAULT_UNITS, DEFAULT_UNITS * MS_PER_UNIT);
  for (let i = 0; i < 1000; i++) learn(admission, i % 2 ? 1 : 100, 0.01 + (i % 2 ? 0 : 0.04)); // 1 and 100 items
  const { runMs } = admission.estimate(DEFAULT_UNITS);
  assert.ok(Math.abs(runMs - DEFAULT_UNITS * MS_PER_UNIT) < 0.1, `the default body's estimate stays its measurement: ${runMs} ms`);
  const overhead = admission.estimate(1).runMs;
  assert.ok(overhead > 0.005 && overhead < 0.05, `a tiny task's estimate is the overhead measured: ${overhead} ms`);
  assert.deepStrictEqual(admission.admit(DEFAULT_UNITS), { probe: false });
});

test('admission: one outlier raises the estimate by at most a factor of 2, and the next measurement undoes it', () => {
  const admission = createAdmission({ workers: 1, taskTimeoutMs: 8000 });
  const expected = DEFAULT_UNITS * MS_PER_UNIT;
  for (let i = 0; i < 5; i++) learn(admission, DEFAULT_UNITS, expected);
  learn(admission, DEFAULT_UNITS, 1000 * expected); // descheduled, or stalled by a neighbour
  assertNear(admission.estimate(DEFAULT_UNITS).runMs, 2 * expected);
  assert.deepStrictEqual(admission.admit(DEFAULT_UNITS), { probe: false }, 'the default body is still admitted');
  admission.done(DEFAULT_UNITS, expected);
  assertNear(admission.estimate(DEFAULT_UNITS).runMs, expected);
});

test('admission: the estimate follows a machine that slows down, then speeds up', () => {
  const admission = createAdmission({ workers: 1, taskTimeoutMs: 8000 });
  learn(admission, DEFAULT_UNITS, DEFAULT_UNITS * MS_PER_UNIT);
  assert.deepStrictEqual(admission.admit(MAXIMAL_UNITS), { probe: false }, 'a maximal body fits at 5 ns a unit (1.3 s)');
  admission.done(MAXIMAL_UNITS);
  const slow = 8 * MS_PER_UNIT; // 40 ns a unit: a maximal body is 10.8 s, past the deadline
  const seen = [];
  for (let i = 0; i < 12; i++) {
    learn(admission, DEFAULT_UNITS, DEFAULT_UNITS * slow);
    seen.push(admission.cost.msPerUnit / MS_PER_UNIT);
  }
  [2, 4, 6].forEach((times, i) => assertNear(seen[i], times, `at most twice, then halfway: ${seen.join(', ')}`));
  assertNear(seen[11], 8, `followed to 8× in 12 tasks: ${seen.join(', ')}`, 0.01);
  assert.throws(() => admission.admit(MAXIMAL_UNITS), refused);
  learn(admission, DEFAULT_UNITS, DEFAULT_UNITS * MS_PER_UNIT); // back to 5 ns: followed at once
  assert.deepStrictEqual(admission.admit(MAXIMAL_UNITS), { probe: false });
});

test('admission: an estimate that refuses lets a probe through now and then, when nothing else is admitted', () => {
  const admission = createAdmission({ workers: 1, taskTimeoutMs: 8000 });
  const expected = DEFAULT_UNITS * MS_PER_UNIT;
  learn(admission, DEFAULT_UNITS, 1000 * expected); // the very first large task stalled: 67 s
  admission.admit(1); // a tiny task keeps the pool busy: no probe then, however many refusals
  for (let i = 0; i < 3 * PROBE_AFTER_REFUSALS; i++) assert.throws(() => admission.admit(DEFAULT_UNITS), refused);
  admission.done(1, 0.01);
  assert.deepStrictEqual(admission.admit(DEFAULT_UNITS), { probe: true }, 'the pool is idle: the next refusal is a probe');
  admission.done(DEFAULT_UNITS, expected);
  assert.deepStrictEqual(admission.admit(DEFAULT_UNITS), { probe: false }, 'the probe corrected the estimate');

  // A refusing estimate that is right (a 100 ms deadline, a maximal body of 1.3 s): at most one probe per 8 refusals,
  // and none while a task runs.
  const strict = createAdmission({ workers: 1, taskTimeoutMs: 100 });
  learn(strict, DEFAULT_UNITS, expected);
  for (let i = 1; i < PROBE_AFTER_REFUSALS; i++) assert.throws(() => strict.admit(MAXIMAL_UNITS), refused);
  assert.deepStrictEqual(strict.admit(MAXIMAL_UNITS), { probe: true }, `probed at refusal ${PROBE_AFTER_REFUSALS}`);
  for (let i = 0; i < PROBE_AFTER_REFUSALS; i++) assert.throws(() => strict.admit(MAXIMAL_UNITS), refused);
  strict.done(MAXIMAL_UNITS); // it timed out: nothing learnt
  assert.deepStrictEqual(strict.admit(MAXIMAL_UNITS), { probe: true }, `${PROBE_AFTER_REFUSALS} refused while it ran: the next one probes`);
  strict.done(MAXIMAL_UNITS);
  for (let i = 1; i < PROBE_AFTER_REFUSALS; i++) assert.throws(() => strict.admit(MAXIMAL_UNITS), refused);
  assert.deepStrictEqual(strict.admit(MAXIMAL_UNITS), { probe: true });
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

/**
 * A kept-alive raw connection, for requests whose bytes must all reach the server in one turn of the test's loop (the
 * server shares it). send(text) writes; next() resolves the next whole answer {status, headers, json}.
 */
async function rawConnection(port) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {}); // a connection the test closes
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = Buffer.alloc(0);
  socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
  const nextAnswer = () => {
    const headEnd = received.indexOf('\r\n\r\n');
    if (headEnd < 0) return null;
    const lines = received.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const end = headEnd + 4 + Number(headers['content-length']);
    if (received.length < end) return null;
    const json = JSON.parse(received.subarray(headEnd + 4, end).toString('utf8'));
    received = received.subarray(end);
    return { status: Number(lines[0].split(' ')[1]), headers, json };
  };
  return {
    socket,
    send: (text) => socket.write(text),
    async next() {
      for (;;) {
        const answer = nextAnswer();
        if (answer) return answer;
        if (socket.destroyed || socket.readableEnded) assert.fail('the connection closed before a whole answer');
        await new Promise((resolve) => socket.once('data', resolve).once('close', resolve));
      }
    },
  };
}

const postText = (path, body) => {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
};

/** n raw connections that the server has accepted and reads (each has had an answer to GET /healthz). */
async function openConnections(server, n) {
  const port = Number(new URL(server.url).port);
  const connections = await Promise.all(Array.from({ length: n }, () => rawConnection(port)));
  for (const connection of connections) {
    connection.send('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.strictEqual((await connection.next()).status, 200);
  }
  return connections;
}

test('the unoptimized route drops the waiting tasks of clients that left, and counts them interrupted', async () => {
  await withService({ workers: 1 }, async (server) => {
    const connections = await openConnections(server, 7);
    const [holder, stayer, ...leavers] = connections;
    try {
      // All in one turn, so the server reads them together: a long task that holds the loop, five maximal ones (~2 s
      // each) whose clients hang up at once, and a small one whose client waits. The leavers' tasks must not run.
      holder.send(postText(ROUTE.unoptimized, HEAVY));
      for (const leaver of leavers) {
        leaver.send(postText(ROUTE.unoptimized, testData({ items: 100, fibonacciN: 30 })));
        leaver.socket.destroy();
      }
      stayer.send(postText(ROUTE.unoptimized, testData({ items: 2, fibonacciN: 10 })));
      for (const answer of await Promise.all([holder.next(), stayer.next()])) {
        assert.strictEqual(answer.status, 200, JSON.stringify(answer.json));
        assert.strictEqual(answer.json.validated, true);
      }
    } finally {
      connections.forEach((connection) => connection.socket.destroy());
    }
    const metrics = await waitForMetrics(server, (text) => sumOf(text, 'lab_offload_tasks_total', { route: 'unoptimized' }) >= 7, 'all seven tasks counted');
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { route: 'unoptimized', outcome: 'interrupted' }), 5);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { route: 'unoptimized', outcome: 'ok' }), 2);
    assert.strictEqual(sumOf(metrics, 'lab_offload_task_run_seconds_count', { route: 'unoptimized' }), 2, 'only the two kept tasks ran');
  });
});

test('the unoptimized route bounds its queue: 503 with Retry-After naming UNOPTIMIZED_MAX_QUEUE past it', async () => {
  await withService({ workers: 1, unoptimizedMaxQueue: 2 }, async (server) => {
    const info = await (await fetch(`${server.url}/info`)).json();
    assert.strictEqual(info.offload.unoptimizedMaxQueue, 2);
    const connections = await openConnections(server, 5);
    let answers;
    try {
      // Sent in one turn: the server reads all five before the first starts, so two wait and three are refused.
      connections.forEach((connection, i) => connection.send(postText(ROUTE.unoptimized, testData({ items: 2, fibonacciN: 10, seed: i }))));
      answers = await Promise.all(connections.map((connection) => connection.next()));
    } finally {
      connections.forEach((connection) => connection.socket.destroy());
    }
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepStrictEqual(statuses, [200, 200, 503, 503, 503]);
    for (const answer of answers.filter((a) => a.status === 503)) {
      assert.strictEqual(answer.headers['retry-after'], '1');
      assert.match(answer.json.error, /UNOPTIMIZED_MAX_QUEUE/);
      assert.strictEqual(answer.json.maxQueue, 2);
    }
    assert.ok(answers.filter((a) => a.status === 200).every((a) => a.json.validated));
    const metrics = await metricsOf(server);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { route: 'unoptimized', outcome: 'queue-full' }), 3);
    assert.strictEqual(sumOf(metrics, 'lab_offload_tasks_total', { route: 'unoptimized', outcome: 'ok' }), 2);
    const after = await post(`${server.url}${ROUTE.unoptimized}`, testData({ items: 2, fibonacciN: 10 }));
    assert.strictEqual(after.status, 200, 'the queue frees again');
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

// Responsiveness is this experiment's feature, so it is checked as properties no machine's speed or load can break: an
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
