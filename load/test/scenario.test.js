'use strict';
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { startService } = require('../../node-kit/testing');
const { makeService } = require('../../services/node-async/src/service');
const { runScenario } = require('../src/scenario');

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
  assert.ok(failed.problems.some((p) => /^warm-up: \d+ non-2xx responses$/.test(p)), failed.problems.join('; '));

  seen = 3; // every answer 200 from now on
  const passed = await runScenario(scenario, url);
  assert.strictEqual(passed.passed, true, passed.problems.join('; '));
  assert.deepStrictEqual(passed.warmup.problems, []);
  assert.strictEqual(passed.warmup.requests + passed.result.requests.total, seen - 3);
  const none = await runScenario(Object.assign({}, scenario, { warmupSeconds: 0 }), url);
  assert.strictEqual(none.warmup, undefined, 'no warm-up asked, none run');
});
