'use strict';
const test = require('node:test');
const assert = require('node:assert');
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
