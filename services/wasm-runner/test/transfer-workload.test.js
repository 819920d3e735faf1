'use strict';
// The transfer workload on its own, without HTTP: every approach and op validates (the value that came back, or the
// count, against its reference, and the C++ tree against the generator's), a wrong answer never validates,
// wasm-transfer's per-op figures and the bytes that cross are reported, runs give the event loop turns between slices,
// and an aborted signal stops a run at a slice boundary. No assertion depends on how fast the machine is: the work
// between yields is checked in nodes against the module's own slice size (maxSliceOps), never against a clock.
const test = require('node:test');
const assert = require('node:assert');
const { TRANSFER_CASES, generate } = require('@lab/payloads');
const { loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES } = require('../lib/transfer/approaches');
const { countNodes } = require('../lib/transfer/nodes');
const { createTransferWorkload, maxSliceOps, OPS } = require('../lib/transfer/transfer-workload');

const params = (overrides) => Object.assign({ op: 'roundtrip', case: 'flat_small', seed: 1, iterations: 3, yieldMs: 5 }, overrides);

/** The most ops a slice of a run with params p may do: its yieldMs in nodes over the case's nodes. */
const sliceOpsOf = (p) => maxSliceOps(p.yieldMs, countNodes(generate({ document: 'transfer', seed: p.seed, case: p.case })));

/**
 * What holds for every run, however fast or loaded the machine. A yield follows each slice but the last of a finished
 * run (an interrupted run stops at the boundary after its last yield), a slice does at least one op and at most the
 * module's slice size in nodes (sliceOpsOf): so a run of n ops has at least ceil(n / that) slices. Counts only: a
 * slice that the clock ended early (a loaded machine) makes more slices, never fewer.
 */
function assertSliceRules(result, p) {
  assert.ok(Number.isInteger(result.yields) && result.yields >= 0, JSON.stringify(result));
  const slices = result.interrupted ? result.yields : result.yields + 1;
  assert.ok(slices <= Math.max(result.iterations, 1), `${slices} slices for ${result.iterations} ops`);
  const maxOps = sliceOpsOf(p);
  assert.ok(slices >= Math.ceil(result.iterations / maxOps), `${result.iterations} ops in ${slices} slices, at most ${maxOps} a slice`);
}

/**
 * Runs fn with an approach whose ops are counted and a self-renewing setImmediate that notes how many ran since the
 * last turn of the loop; resolves to [fn's answer, the most ops seen between two turns].
 */
async function opsBetweenTurns(fn) {
  let ops = 0;
  let most = 0;
  const counted = (op) => (...args) => (ops++, op(...args));
  const json = APPROACHES.json;
  const counting = Object.assign({}, json, { roundTrip: counted(json.roundTrip), count: counted(json.count), create: counted(json.create) });
  let timer = setImmediate(function tick() {
    most = Math.max(most, ops);
    ops = 0;
    timer = setImmediate(tick);
  });
  try {
    const answer = await fn({ json: counting });
    most = Math.max(most, ops);
    return [answer, most];
  } finally {
    clearImmediate(timer);
  }
}

/**
 * The wasm-transfer figures are the ops' own: min <= median <= p95, and the mean is ms over the ops (the figures are
 * rounded to 1e-6 ms, so within that).
 */
function assertStats(result) {
  const { avgMs, medianMs, minMs, p95Ms } = result.stats;
  assert.ok(minMs >= 0 && minMs <= medianMs && medianMs <= p95Ms, JSON.stringify(result.stats));
  assert.ok(avgMs >= minMs && Math.abs(avgMs - result.ms / result.iterations) <= 1e-6, JSON.stringify(result));
}

for (const approach of Object.keys(APPROACHES)) {
  test(`${approach}: every op validates on every case, against the reference and the generator's tree`, async () => {
    const wasm = await loadWasmModule();
    const workload = createTransferWorkload(wasm);
    for (const name of TRANSFER_CASES) {
      for (const op of OPS) {
        const result = await workload.run({ approach, params: params({ op, case: name }) });
        const where = `${approach} ${op} ${name}: ${JSON.stringify(result)}`;
        assert.strictEqual(result.validated, true, where);
        assert.strictEqual(result.reference, op === 'count' ? 'node-count' : 'vector', where);
        assert.strictEqual(result.treeHash, wasm.referenceTreeHash(name, 1), where);
        assert.strictEqual(result.iterations, 3);
        assertStats(result);
        assertSliceRules(result, params({ op, case: name }));
        for (const direction of ['in', 'out']) {
          const bytes = result.boundaryBytes[direction];
          assert.ok(approach === 'embind' ? bytes === null : Number.isInteger(bytes) && bytes >= 0, where);
        }
      }
    }
  });
}

test('the bytes that cross: a round trip sends its value in and back, a create only back, a count only in', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  for (const approach of Object.keys(APPROACHES).filter((a) => a !== 'embind')) {
    const run = (op) => workload.run({ approach, params: params({ op, case: 'objects_100', iterations: 1 }) });
    const [roundtrip, create, count] = [await run('roundtrip'), await run('create'), await run('count')];
    assert.ok(roundtrip.boundaryBytes.in > 1000 && roundtrip.boundaryBytes.out > 1000, `${approach}: ${JSON.stringify(roundtrip.boundaryBytes)}`);
    assert.ok(create.boundaryBytes.in < 100 && create.boundaryBytes.out > 1000, `${approach}: ${JSON.stringify(create.boundaryBytes)}`);
    assert.ok(count.boundaryBytes.in > 1000 && count.boundaryBytes.out < 100, `${approach}: ${JSON.stringify(count.boundaryBytes)}`);
  }
});

test('an unpinned seed validates against native JSON.stringify, and count against the node count', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const input = generate({ document: 'transfer', seed: 12345, case: 'objects_10' });
  const roundtrip = await workload.run({ approach: 'typed', params: params({ case: 'objects_10', seed: 12345, iterations: 1 }) });
  assert.strictEqual(roundtrip.reference, 'native');
  assert.strictEqual(roundtrip.validated, true);
  assert.strictEqual(roundtrip.bytes, Buffer.byteLength(JSON.stringify(input)));
  const count = await workload.run({ approach: 'typed', params: params({ op: 'count', case: 'objects_10', seed: 12345, iterations: 1 }) });
  assert.strictEqual(count.validated, true);
  assert.strictEqual(count.bytes, String(countNodes(input)).length);
});

test('a wrong answer never validates: a changed value, a count off by one, a C++ tree that is not the input', async () => {
  const wasm = await loadWasmModule();
  const json = APPROACHES.json;
  const liars = {
    // The value crossed intact, but the one given back lost a key.
    'drops-a-key': Object.assign({}, json, {
      roundTrip: (module, value) => {
        const answer = json.roundTrip(module, value);
        const changed = Object.assign({}, answer.value);
        delete changed[Object.keys(changed)[0]];
        return Object.assign({}, answer, { value: changed });
      },
    }),
    'counts-one-more': Object.assign({}, json, { count: (module, value) => Object.assign({}, json.count(module, value), { count: json.count(module, value).count + 1 }) }),
    // The right value given back, but C++ built its tree from another one.
    'builds-another-tree': Object.assign({}, json, {
      roundTrip: (module, value) => Object.assign({}, json.roundTrip(module, Object.assign({}, value, { extra: 1 })), { value }),
    }),
  };
  const workload = createTransferWorkload(wasm, { approaches: liars });
  for (const [approach, op] of [['drops-a-key', 'roundtrip'], ['counts-one-more', 'count'], ['builds-another-tree', 'roundtrip']]) {
    const result = await workload.run({ approach, params: params({ op }) });
    assert.strictEqual(result.validated, false, `${approach}: ${JSON.stringify(result)}`);
    assert.strictEqual(result.interrupted, false);
  }
});

test('a single op is one slice: no yields', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const result = await workload.run({ approach: 'json', params: params({ iterations: 1, yieldMs: 1 }) });
  assert.strictEqual(result.validated, true);
  assert.strictEqual(result.yields, 0);
  assert.ok(result.ms > 0);
  assert.strictEqual(result.stats.minMs, result.stats.p95Ms);
});

test('a long run gives the event loop turns while it runs, at most a slice of nodes between two, and still validates', async () => {
  // 100 round trips of numbers_10000 (10 001 nodes each) are 39 slices' worth of nodes at yieldMs 1 (26 a slice).
  const p = params({ case: 'numbers_10000', iterations: 100, yieldMs: 1 });
  const [result, most] = await opsBetweenTurns(async (approaches) => {
    const workload = createTransferWorkload(await loadWasmModule(), { approaches });
    await workload.run({ approach: 'json', params: Object.assign({}, p, { iterations: 1 }) }); // input made, outside the count
    return workload.run({ approach: 'json', params: p });
  });
  assert.strictEqual(result.validated, true, JSON.stringify(result));
  assert.strictEqual(result.iterations, 100);
  assert.ok(result.yields >= 3, JSON.stringify(result));
  assert.ok(most >= 1 && most <= sliceOpsOf(p), `${most} ops between two turns of the loop, at most ${sliceOpsOf(p)} allowed`);
  assertSliceRules(result, p);
  assertStats(result);
  assert.strictEqual(typeof result.eventLoop.maxBlockMs, 'number');
});

test('with the clock stopped, the slice size in nodes alone ends each slice', async (t) => {
  // performance.now() frozen: the time bound never ends a slice, so the slices are exactly the node bound's.
  const { performance } = require('node:perf_hooks');
  t.mock.method(performance, 'now', () => 0);
  const p = params({ op: 'count', case: 'numbers_10000', iterations: 100, yieldMs: 1 });
  const [result, most] = await opsBetweenTurns(async (approaches) => createTransferWorkload(await loadWasmModule(), { approaches }).run({ approach: 'json', params: p }));
  t.mock.restoreAll();
  const maxOps = sliceOpsOf(p);
  assert.strictEqual(result.validated, true, JSON.stringify(result));
  assert.strictEqual(most, maxOps);
  assert.strictEqual(result.yields + 1, Math.ceil(100 / maxOps), JSON.stringify(result));
});

test('concurrent runs of different approaches interleave their slices on the one module and each validates', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const runs = [
    ['json', params({ case: 'numbers_10000', iterations: 100, yieldMs: 1 })],
    ['typed', params({ case: 'objects_100', iterations: 300, yieldMs: 1 })],
    ['embind', params({ op: 'create', case: 'tree_d6_b4', iterations: 30, yieldMs: 1 })],
  ];
  const results = await Promise.all(runs.map(([approach, p]) => workload.run({ approach, params: p })));
  for (const [i, result] of results.entries()) {
    assert.strictEqual(result.validated, true, JSON.stringify(result));
    assertSliceRules(result, runs[i][1]);
  }
  assert.ok(results[0].yields > 0, 'the long run yielded, so the others ran between its slices');
});

test('an aborted signal stops the run at a slice boundary, reported as interrupted', async () => {
  const controller = new AbortController();
  const p = params({ case: 'numbers_10000', iterations: 10000, yieldMs: 1 });
  // json, counting its round trips: they run only inside slices, so an abort from a turn of the loop once one has
  // run lands between two slices.
  let roundTrips = 0;
  const counting = Object.assign({}, APPROACHES.json, { roundTrip: (module, value) => (roundTrips++, APPROACHES.json.roundTrip(module, value)) });
  const workload = createTransferWorkload(await loadWasmModule(), { approaches: { json: counting } });
  const running = workload.run({ approach: 'json', params: p }, { signal: controller.signal });
  const abortAfterFirstSlice = () => (roundTrips > 0 ? controller.abort(new Error('the client went away')) : setImmediate(abortAfterFirstSlice));
  setImmediate(abortAfterFirstSlice);
  const result = await running;
  assert.strictEqual(result.interrupted, true, JSON.stringify(result));
  assert.strictEqual(result.interruptedBy, 'client');
  assert.strictEqual(result.validated, false);
  assert.strictEqual(result.hash, null);
  assert.strictEqual(result.bytes, null);
  assert.strictEqual(result.treeHash, null);
  assert.ok(result.iterations >= 1 && result.iterations < 10000, `${result.iterations} round trips`);
  assert.ok(result.yields >= 1 && result.ms > 0);
  assertSliceRules(result, p);
  // The module is left usable.
  assert.strictEqual((await workload.run({ approach: 'json', params: params({ case: 'numbers_10000' }) })).validated, true);
});

test('a run whose client is already gone does no op', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const controller = new AbortController();
  controller.abort(new Error('the client went away'));
  const result = await workload.run({ approach: 'json', params: params() }, { signal: controller.signal });
  assert.deepStrictEqual(
    { interrupted: result.interrupted, interruptedBy: result.interruptedBy, validated: result.validated, hash: result.hash, bytes: result.bytes },
    { interrupted: true, interruptedBy: 'client', validated: false, hash: null, bytes: null },
  );
  assert.deepStrictEqual({ iterations: result.iterations, ms: result.ms, msPerOp: result.msPerOp, yields: result.yields }, { iterations: 0, ms: 0, msPerOp: null, yields: 0 });
  assert.deepStrictEqual(result.stats, { avgMs: null, medianMs: null, minMs: null, p95Ms: null });
});
