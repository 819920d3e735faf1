'use strict';
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { startService } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { runScenario } = require('../src/scenario/scenario');
const { summarize } = require('../src/run/summary');
const { round } = require('@lab/loop-kit/round');

test('a scenario passes only when every /run result is validated', async (t) => {
  const service = await startService(makeService());
  t.after(() => service.close());
  const base = { target: 'node-async', connections: 1, durationSeconds: 1, maxRequests: 5, expect: 'validated' };
  const ok = await runScenario(Object.assign({ name: 'ok', path: '/run/stringify?size=10' }, base), service.url);
  assert.strictEqual(ok.passed, true, ok.problems.join());
  assert.strictEqual(ok.checks.checked, ok.result.requests.total);
  // /healthz answers 200 but is no run result: under expect=validated that is a failure, not a pass.
  const notARun = await runScenario(Object.assign({ name: 'not-a-run', path: '/healthz' }, base), service.url);
  assert.strictEqual(notARun.passed, false);
  assert.match(notARun.problems.join(), /not validated/);
  const statusOnly = await runScenario(Object.assign({}, base, { name: 'status', path: '/healthz', expect: 'status' }), service.url);
  assert.strictEqual(statusOnly.passed, true);
});

test('a scenario with bodyFrom posts the body the target generates', async (t) => {
  const service = await startService(makeService());
  t.after(() => service.close());
  const base = { target: 'node-async', method: 'POST', connections: 2, durationSeconds: 1, maxRequests: 4, expect: 'validated' };
  const posted = await runScenario(Object.assign({ name: 'posted', path: '/api/optimized/process-data', bodyFrom: '/api/test-data?items=2&fibonacciN=5' }, base), service.url);
  assert.strictEqual(posted.passed, true, posted.problems.join());
  assert.strictEqual(posted.checks.checked, 4);
  await assert.rejects(
    runScenario(Object.assign({ name: 'bad-source', path: '/api/optimized/process-data', bodyFrom: '/api/test-data?items=0' }, base), service.url),
    /bodyFrom \/api\/test-data\?items=0: HTTP 400/,
  );
});

test("a JVM's runs keep the slowest run's thread split and the share its threads waited for a CPU, into the summary", async (t) => {
  // Answers shaped as jvm-serializer's (CONTRACT.md: `thread`, no event loop), the slowest first so it is always
  // served; the last from a service that cannot read the wait, which leaves the totals alone.
  const threads = [{ wallMs: 50, cpuMs: 10, waitMs: 35 }, { wallMs: 20, cpuMs: 19, waitMs: 0.5 }, { wallMs: 30, cpuMs: 29, waitMs: null }];
  const served = [];
  const server = http.createServer((req, res) => {
    const thread = threads[served.length % threads.length];
    served.push(thread);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ validated: true, ms: 1, thread }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const scenario = { name: 'jvm-runs', target: 'local', path: '/run/serde', connections: 1, durationSeconds: 1, maxRequests: 3, expect: 'validated' };
  const outcome = await runScenario(scenario, `http://127.0.0.1:${server.address().port}`);
  assert.strictEqual(outcome.passed, true, outcome.problems.join());
  const runs = outcome.checks.runs;
  assert.strictEqual(runs.count, served.length);
  assert.deepStrictEqual([runs.maxRunWallMs, runs.maxRunCpuMs, runs.maxRunWaitMs], [50, 10, 35]);
  const waited = served.filter((th) => th.waitMs !== null);
  assert.deepStrictEqual([runs.totalRunWallMs, runs.totalRunWaitMs], [waited.reduce((a, th) => a + th.wallMs, 0), waited.reduce((a, th) => a + th.waitMs, 0)]);
  assert.strictEqual(runs.maxBlockMs, null, 'a thread is no event loop: no block is made up from it');
  const summary = summarize(outcome);
  assert.deepStrictEqual([summary.longestRunWallMs, summary.longestRunCpuMs, summary.longestRunWaitMs], [50, 10, 35]);
  assert.strictEqual(summary.runWaitShare, round(runs.totalRunWaitMs / runs.totalRunWallMs));
  assert.strictEqual(summary.longestBlockWaitMs, null);
});

test('a window that ends before the first answer waits for it, bounded by the request timeout', async (t) => {
  // Every answer comes 1.5 s after its request, later than the 1 s window: before, autocannon ended the window with the
  // one request in flight and the scenario failed on "no request completed", on a fast machine as on a slow one.
  const server = http.createServer((req, res) => {
    const timer = setTimeout(() => res.end('ok'), 1500);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const scenario = { name: 'slow-first-answer', target: 'local', path: '/', connections: 1, durationSeconds: 1, maxRequests: 100, timeoutSeconds: 30, expect: 'status' };
  const outcome = await runScenario(scenario, `http://127.0.0.1:${server.address().port}`);
  assert.strictEqual(outcome.passed, true, outcome.problems.join());
  assert.ok(outcome.result.requests.total >= 1, JSON.stringify(outcome.result.requests));
  // The window ended at that first answer, not at the hard bound: at most a few answers, far below what 31 s would give.
  assert.ok(outcome.result.requests.total <= 2, `${outcome.result.requests.total} answers`);
});

test('a warm-up runs the same requests before the window, counted apart, and a failed warm-up fails the scenario', async (t) => {
  // The first three requests ever are answered 500: the first always falls in the warm-up.
  let seen = 0;
  const server = http.createServer((req, res) => {
    seen++;
    res.statusCode = seen <= 3 ? 500 : 200;
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  const scenario = { name: 'warmed', target: 'local', path: '/', connections: 1, durationSeconds: 1, warmupSeconds: 1, maxRequests: 3, expect: 'status' };

  const failed = await runScenario(scenario, url);
  assert.ok(failed.warmup.requests >= 1, JSON.stringify(failed.warmup));
  assert.strictEqual(failed.warmup.requests + failed.result.requests.total, seen, 'every request the server saw is the warm-up\'s or the window\'s');
  assert.strictEqual(failed.passed, false);
  // The count, and the first refused answer, which says why.
  assert.ok(failed.problems.some((p) => /^warm-up: \d+ non-2xx responses \(the first: HTTP 500: ok\)$/.test(p)), failed.problems.join('; '));

  seen = 3; // every answer 200 from now on
  const passed = await runScenario(scenario, url);
  assert.strictEqual(passed.passed, true, passed.problems.join('; '));
  assert.deepStrictEqual(passed.warmup.problems, []);
  assert.strictEqual(passed.warmup.requests + passed.result.requests.total, seen - 3);
  const none = await runScenario(Object.assign({}, scenario, { warmupSeconds: 0 }), url);
  assert.strictEqual(none.warmup, undefined, 'no warm-up asked, none run');
});

test('an open loop sends on its schedule whatever the server does, and counts each wait from the intended send time', async (t) => {
  // The server answers the first request only after the second, third and fourth have been sent: a closed loop of one
  // connection would have sent nothing more, and would record one slow answer and three fast ones.
  const held = [];
  let seen = 0;
  const server = http.createServer((req, res) => {
    seen++;
    held.push(res);
    if (seen === 4) for (const r of held.splice(0)) r.end('ok');
    else if (seen > 4) res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const scenario = { name: 'open', target: 'local', path: '/', arrivalRate: 20, connections: 4, durationSeconds: 1, maxRequests: 8, expect: 'status' };
  const outcome = await runScenario(scenario, `http://127.0.0.1:${server.address().port}`);
  assert.strictEqual(outcome.passed, true, outcome.problems.join('; '));
  assert.deepStrictEqual([outcome.openLoop.intended, outcome.openLoop.sent, outcome.result.requests.total], [8, 8, 8], 'every scheduled request sent and answered, bounded by maxRequests');
  assert.strictEqual(seen, 8);
  // The first request waited for the fourth to be sent, three intervals of 50 ms at least after its own intended time;
  // from its actual send it waited as long. Every answer's wait from the intended time is at least its wait from the send.
  const { latencyFromIntendedMs: intended, latencyFromSendMs: sent } = outcome.openLoop;
  assert.ok(intended.max >= 150, JSON.stringify(intended));
  assert.ok(intended.max >= sent.max && intended.p50 >= sent.p50, `${JSON.stringify(intended)} ${JSON.stringify(sent)}`);
  assert.strictEqual(outcome.result.latency.p99, intended.p99, "the result's latency is the corrected one");
  assert.strictEqual(outcome.littlesLaw.holds, null, 'not checked for an open loop');
});

test('an open loop whose connections are all busy queues the due requests, and their wait counts from the schedule', async (t) => {
  // One connection and answers held until the third request arrives: the second and third are due while the first
  // holds the connection, so they wait in the queue, which only the time from the intended send shows.
  const held = [];
  const server = http.createServer((req, res) => {
    held.push(res);
    if (held.length === 1) setTimeout(() => held.shift().end('ok'), 300);
    else res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const scenario = { name: 'queued', target: 'local', path: '/', arrivalRate: 50, connections: 1, durationSeconds: 1, maxRequests: 3, expect: 'status' };
  const outcome = await runScenario(scenario, `http://127.0.0.1:${server.address().port}`);
  assert.strictEqual(outcome.passed, true, outcome.problems.join('; '));
  const { latencyFromIntendedMs: intended, latencyFromSendMs: sent } = outcome.openLoop;
  // The second was due 20 ms in and waited for the first's answer (300 ms in at the earliest): over 200 ms from its
  // intended time, while from its actual send it was answered at once.
  assert.ok(intended.p50 >= 200, JSON.stringify(intended));
  assert.ok(sent.p50 < intended.p50, `${JSON.stringify(sent)} against ${JSON.stringify(intended)}`);
});
