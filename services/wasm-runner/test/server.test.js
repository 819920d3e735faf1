'use strict';
// The real server on port 0, over HTTP: node-kit's contract checks, then the transfer workload's own.
const test = require('node:test');
const assert = require('node:assert');
const { contractSuite, startService, request, sumOf, samples } = require('@lab/test-kit');
const { TRANSFER_CASES } = require('@lab/payloads');
const { createWasmRunner } = require('../lib/server');

test('wasm-runner', async (t) => {
  const service = await createWasmRunner();
  // contractSuite registers its checks with the runner it is given; subtests run in order.
  contractSuite(t.test.bind(t), assert, () => service, { workload: 'transfer', query: 'case=flat_small&iterations=2' });
});

test('transfer over HTTP', async (t) => {
  const server = await startService(await createWasmRunner());
  t.after(() => server.close());

  await t.test('/info lists every transfer case and the versions the module was built with', async () => {
    const info = (await request(`${server.url}/info`)).json;
    assert.strictEqual(info.service, 'wasm-runner');
    assert.deepStrictEqual(info.workloads.transfer.approaches, ['json', 'embind', 'msgpack', 'msgpackr', 'typed', 'worker']);
    assert.deepStrictEqual(info.workloads.transfer.params.case.values, TRANSFER_CASES);
    assert.deepStrictEqual(info.workloads.transfer.params.op.values, ['roundtrip', 'count', 'create']);
    assert.strictEqual(info.libraries.yyjson, '0.10.0');
    for (const library of ['@msgpack/msgpack', 'msgpackr']) assert.match(info.libraries[library], /^\d+\.\d+\.\d+$/, library);
    assert.match(info.libraries.emscripten, /^\d+\.\d+\.\d+$/);
  });

  await t.test('/run/transfer with defaults validates against the vector', async () => {
    const res = await request(`${server.url}/run/transfer`);
    assert.strictEqual(res.status, 200, res.text);
    assert.deepStrictEqual(res.json.params, { op: 'roundtrip', case: 'flat_small', seed: 1, iterations: 100, yieldMs: 5, document: '' });
    assert.strictEqual(res.json.case, 'flat_small');
    assert.strictEqual(res.json.approach, 'json');
    assert.strictEqual(res.json.reference, 'vector');
    assert.strictEqual(res.json.validated, true);
    assert.strictEqual(res.json.iterations, 100);
    assert.ok(res.json.msPerOp > 0);
    assert.ok(Number.isInteger(res.json.yields) && res.json.yields >= 0 && res.json.yields < 100);
    assert.strictEqual(res.json.interrupted, false);
  });

  await t.test('the largest case validates against native JSON.stringify for an unpinned seed', async () => {
    const res = await request(`${server.url}/run/transfer?case=numbers_10000&seed=99&iterations=20`);
    assert.strictEqual(res.status, 200, res.text);
    assert.strictEqual(res.json.reference, 'native');
    assert.strictEqual(res.json.validated, true);
  });

  await t.test('bad transfer parameters get 400s naming what is allowed', async () => {
    const cases = [
      ['case=nope', 'case'],
      ['iterations=0', 'iterations'],
      ['iterations=10001', 'iterations'],
      ['yieldMs=0', 'yieldMs'],
      ['yieldMs=1001', 'yieldMs'],
      ['seed=-1', 'seed'],
      ['seed=2147483648', 'seed'],
      ['approach=nope', 'approach'],
      ['op=nope', 'op'],
      // The worker approach's knob: the slice its main-thread work is cut into.
      ['approach=worker&yieldMs=0', 'yieldMs'],
      ['approach=worker&yieldMs=1.5e3', 'yieldMs'],
    ];
    for (const [query, parameter] of cases) {
      const res = await request(`${server.url}/run/transfer?${query}`);
      assert.strictEqual(res.status, 400, `${query}: ${res.text}`);
      assert.strictEqual(res.json.parameter, parameter);
      assert.ok(res.json.allowed !== undefined);
      if (parameter === 'approach') assert.ok(JSON.stringify(res.json.allowed).includes('worker'), res.text);
    }
    assert.strictEqual((await request(`${server.url}/run/transfer?iterations=1`)).json.validated, true);
  });

  await t.test('every approach and op over HTTP: the wasm-transfer figures, the bytes that cross, and the metrics', async () => {
    const info = (await request(`${server.url}/info`)).json;
    for (const approach of info.workloads.transfer.approaches) {
      for (const op of info.workloads.transfer.params.op.values) {
        const res = await request(`${server.url}/run/transfer?approach=${approach}&op=${op}&case=tree_d4_b3&iterations=5`);
        assert.strictEqual(res.status, 200, res.text);
        assert.strictEqual(res.json.validated, true, res.text);
        assert.strictEqual(res.json.case, op === 'roundtrip' ? 'tree_d4_b3' : `${op}:tree_d4_b3`);
        assert.deepStrictEqual(Object.keys(res.json.stats), ['avgMs', 'medianMs', 'minMs', 'p95Ms']);
        assert.deepStrictEqual(Object.keys(res.json.boundaryBytes), ['in', 'out']);
        assert.match(res.json.treeHash, /^[0-9a-f]+$/);
      }
    }
    const metrics = (await request(`${server.url}/metrics`)).text;
    assert.strictEqual(sumOf(metrics, 'lab_transfer_op_seconds_count', { case: 'tree_d4_b3', approach: 'typed', op: 'create', family: 'tree' }), 5);
    assert.ok(sumOf(metrics, 'lab_transfer_boundary_bytes', { case: 'tree_d4_b3', approach: 'msgpack', op: 'roundtrip', direction: 'in' }) > 0);
    assert.strictEqual(samples(metrics, 'lab_transfer_boundary_bytes').filter((s) => s.labels.approach === 'embind').length, 0, 'embind crosses no buffer');
    assert.ok(sumOf(metrics, 'lab_wasm_heap_bytes', {}) >= 16 * 1024 * 1024);
  });

  await t.test('404s for other paths, and the service keeps serving', async () => {
    assert.strictEqual((await request(`${server.url}/nope`)).status, 404);
    assert.strictEqual((await request(`${server.url}/run/nope`)).status, 404);
    assert.deepStrictEqual((await request(`${server.url}/healthz`)).json, { status: 'ok', runs: 0 });
  });
});
