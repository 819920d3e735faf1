'use strict';
// The benchmarks' way into a workload (bench/run-request.js) against the real workloads: every parameter the
// benchmark leaves out gets its default, so the run succeeds and validates. A parameter added to a workload without
// a default that a run can take fails here, not in the middle of `make bench-stringify`.
const test = require('node:test');
const assert = require('node:assert');
const { serializationWorkloads } = require('../serialization-service');
const fast = require('../stringify-approaches');
const { runRequest } = require('../bench/run-request');

test('a benchmark\'s run request gets every default and validates, for stringify and parse', async () => {
  const workloads = serializationWorkloads({ stringify: { fast: fast.fastChunks }, parse: {} });
  for (const [name, approach] of [['stringify', 'native'], ['stringify', 'fast'], ['parse', 'native']]) {
    const request = runRequest(workloads[name], approach, { size: 2, seed: 1, yieldMs: 5 });
    assert.deepStrictEqual(Object.keys(request.params).sort(), Object.keys(workloads[name].params).sort(), name);
    const result = await workloads[name].run(request);
    assert.strictEqual(result.validated, true, `${name} ${approach}: ${JSON.stringify(result).slice(0, 200)}`);
  }
});

test('a parameter the workload does not take is refused, naming it', () => {
  const workloads = serializationWorkloads({ stringify: {}, parse: {} });
  assert.throws(() => runRequest(workloads.stringify, 'native', { sise: 2 }), /unknown parameter sise/);
});
