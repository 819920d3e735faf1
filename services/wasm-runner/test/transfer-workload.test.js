'use strict';
// The transfer workload on its own, without HTTP: every case round-trips to the reference bytes, runs give the event
// loop turns between slices, and an aborted signal stops a run at a slice boundary. No assertion depends on how fast
// the machine is: yields are checked against the counts and slice rules that bound them, never against a clock.
const test = require('node:test');
const assert = require('node:assert');
const { TRANSFER_CASES, generate } = require('../../../payloads/js/index');
const { loadWasmModule } = require('../lib/wasm-module');
const { jsonRoundTrip } = require('../lib/transfer/json-round-trip');
const { createTransferWorkload } = require('../lib/transfer/transfer-workload');

const params = (overrides) => Object.assign({ case: 'flat_small', seed: 1, iterations: 3, yieldMs: 5 }, overrides);

/** Counts turns of the event loop (a self-renewing setImmediate) until stopped. */
function countTurns() {
  let turns = 0;
  let timer = setImmediate(function tick() {
    turns++;
    timer = setImmediate(tick);
  });
  return () => {
    clearImmediate(timer);
    return turns;
  };
}

/**
 * What holds for every run, however fast the machine. A yield follows each slice but the last of a finished run (an
 * interrupted run stops at the boundary after its last yield), a slice does at least one round trip, and a slice
 * followed by a yield ran for at least yieldMs: ms sums the slices.
 */
function assertSliceRules(result, p) {
  assert.ok(Number.isInteger(result.yields) && result.yields >= 0, JSON.stringify(result));
  const slices = result.interrupted ? result.yields : result.yields + 1;
  assert.ok(slices <= Math.max(result.iterations, 1), `${slices} slices for ${result.iterations} round trips`);
  assert.ok(result.yields * p.yieldMs <= result.ms, `${result.yields} yields in ${result.ms} ms`);
}

/**
 * A workload with the input of p already made (node-kit builds inputs in slices, with turns of the loop of its own):
 * after this, a run's awaits before its first slice are all settled promises, so no turn of the loop comes first.
 */
async function warmWorkload(p) {
  const workload = createTransferWorkload(await loadWasmModule());
  await workload.run({ approach: 'json', params: Object.assign({}, p, { iterations: 1 }) });
  return workload;
}

for (const name of TRANSFER_CASES) {
  test(`json round trip of ${name} validates against its vector`, async () => {
    const workload = createTransferWorkload(await loadWasmModule());
    const p = params({ case: name });
    const result = await workload.run({ approach: 'json', params: p });
    assert.strictEqual(result.reference, 'vector');
    assert.strictEqual(result.validated, true, JSON.stringify(result));
    assert.strictEqual(result.interrupted, false);
    assert.strictEqual(result.interruptedBy, null);
    assert.strictEqual(result.iterations, 3);
    assert.ok(result.ms > 0 && result.msPerOp === result.ms / 3);
    assertSliceRules(result, p);
  });
}

test('an unpinned seed validates against native JSON.stringify', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const result = await workload.run({ approach: 'json', params: params({ case: 'objects_10', seed: 12345, iterations: 1 }) });
  assert.strictEqual(result.reference, 'native');
  assert.strictEqual(result.validated, true);
  assert.strictEqual(result.bytes, Buffer.byteLength(JSON.stringify(generate({ document: 'transfer', seed: 12345, case: 'objects_10' }))));
});

test('a single round trip is one slice: no yields', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const result = await workload.run({ approach: 'json', params: params({ iterations: 1, yieldMs: 1 }) });
  assert.strictEqual(result.validated, true);
  assert.strictEqual(result.yields, 0);
  assert.ok(result.ms > 0);
});

test('a long run gives the event loop turns while it runs, and still validates', async () => {
  // 100 round trips of ~105 KB of JSON each take far longer than 1 ms on any machine.
  const p = params({ case: 'numbers_10000', iterations: 100, yieldMs: 1 });
  const workload = await warmWorkload(p);
  const stopCounting = countTurns();
  const result = await workload.run({ approach: 'json', params: p });
  const turns = stopCounting();
  assert.strictEqual(result.validated, true, JSON.stringify(result));
  assert.strictEqual(result.iterations, 100);
  assert.ok(result.yields > 0, JSON.stringify(result));
  assert.ok(turns > 0, 'the loop turned before the run finished');
  assertSliceRules(result, p);
  assert.strictEqual(typeof result.eventLoop.maxBlockMs, 'number');
});

test('concurrent runs interleave their slices on the one module and each validates', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const runs = [params({ case: 'numbers_10000', iterations: 100, yieldMs: 1 }), params({ case: 'objects_100', iterations: 300, yieldMs: 1 })];
  const results = await Promise.all(runs.map((p) => workload.run({ approach: 'json', params: p })));
  for (const [i, result] of results.entries()) {
    assert.strictEqual(result.validated, true, JSON.stringify(result));
    assertSliceRules(result, runs[i]);
  }
  assert.ok(results[0].yields > 0, 'the long run yielded, so the other ran between its slices');
});

test('an aborted signal stops the run at a slice boundary, reported as interrupted', async () => {
  const controller = new AbortController();
  const p = params({ case: 'numbers_10000', iterations: 10000, yieldMs: 1 });
  const workload = await warmWorkload(p);
  const running = workload.run({ approach: 'json', params: p }, { signal: controller.signal });
  // The first slice runs before any turn of the loop, so this aborts at a turn between slices.
  setImmediate(() => controller.abort(new Error('the client went away')));
  const result = await running;
  assert.strictEqual(result.interrupted, true, JSON.stringify(result));
  assert.strictEqual(result.interruptedBy, 'client');
  assert.strictEqual(result.validated, false);
  assert.strictEqual(result.hash, null);
  assert.strictEqual(result.bytes, null);
  assert.ok(result.iterations >= 1 && result.iterations < 10000, `${result.iterations} round trips`);
  assert.ok(result.yields >= 1 && result.ms > 0);
  assertSliceRules(result, p);
  // The module is left usable.
  assert.strictEqual((await workload.run({ approach: 'json', params: params({ case: 'numbers_10000' }) })).validated, true);
});

test('a run whose client is already gone does no round trip', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const controller = new AbortController();
  controller.abort(new Error('the client went away'));
  const result = await workload.run({ approach: 'json', params: params() }, { signal: controller.signal });
  assert.deepStrictEqual(
    { interrupted: result.interrupted, interruptedBy: result.interruptedBy, validated: result.validated, hash: result.hash, bytes: result.bytes },
    { interrupted: true, interruptedBy: 'client', validated: false, hash: null, bytes: null },
  );
  assert.deepStrictEqual({ iterations: result.iterations, ms: result.ms, msPerOp: result.msPerOp, yields: result.yields }, { iterations: 0, ms: 0, msPerOp: null, yields: 0 });
});

test('the round trip gives back a value deep-equal to its input', async () => {
  const wasm = await loadWasmModule();
  const input = generate({ document: 'transfer', seed: 7, case: 'nested_d4' });
  assert.deepStrictEqual(jsonRoundTrip(wasm, input), input);
});

test('the round trip carries non-ASCII text and negative integers intact', async () => {
  const wasm = await loadWasmModule();
  const input = { text: 'grüße, 日本, 🎉', list: [-5, 0, 2147483647, 9007199254740991], nested: { '': [] } };
  assert.deepStrictEqual(jsonRoundTrip(wasm, input), input);
});

test('values the payload spec excludes are refused with the reason', async () => {
  const wasm = await loadWasmModule();
  assert.throws(() => jsonRoundTrip(wasm, { x: 1.5 }), /floating-point/);
  assert.throws(() => jsonRoundTrip(wasm, [true]), /payload spec/);
  assert.throws(() => jsonRoundTrip(wasm, { x: null }), /payload spec/);
  // The module stays usable after a refusal.
  assert.deepStrictEqual(jsonRoundTrip(wasm, [1, 'a']), [1, 'a']);
});
