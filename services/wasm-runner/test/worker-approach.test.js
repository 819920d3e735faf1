'use strict';
// The worker approach (lib/transfer/worker-approach.js) against typed, the approach it is measured against: the same
// value back and the same C++ tree (its hash, taken in the worker's module) on every transfer case and on edge
// documents, the same count; and the property it exists for: its main-thread work comes in slices bounded in work
// units (characters posted, nodes read), with turns of the loop between them, counted, never timed.
const test = require('node:test');
const assert = require('node:assert');
const { TRANSFER_CASES, generate } = require('@lab/payloads');
const { loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES, SLICED_APPROACHES } = require('../lib/transfer/approaches');
const { countNodes } = require('../lib/transfer/nodes');
const { createTransferWorkload } = require('../lib/transfer/transfer-workload');
const { SHARED_STRING_UNITS, SHARED_TRIAL_STRINGS } = require('../lib/transfer/typed-sliced-reader');

const worker = SLICED_APPROACHES.worker;
const { typed } = APPROACHES;

const nest = (depth) => {
  let value = [];
  for (let i = 1; i < depth; i++) value = i % 2 ? { k: value } : [value];
  return value;
};

// Edge documents: deep nesting (to MAX_DEPTH), long strings (ASCII and not, across the reader's blob pieces), Unicode
// (BMP and astral, in keys too), empty containers, numbers of every form the layout has, a __proto__ key, shapes
// repeated and not, an int32 run long enough to span slices.
const EDGES = {
  scalars: [0, -1, 2147483647, -2147483648, 2147483648, -(2 ** 53) + 1, 2 ** 53 - 1, 0.5, -1e-300, 1.7976931348623157e308, 2 ** 60, true, false, null, ''],
  deep: () => nest(512),
  longStrings: () => ({ ascii: 'a'.repeat(300000), mixed: `${'é'.repeat(70000)}😀${'x'.repeat(65535)}😀`, keys: { ['ключ'.repeat(1000)]: 'v' } }),
  unicode: { 'ü': 'ü', '😀': ['😀', 'a😀b', '\u0000\u001f', '\u2028\u2029'], 'עברית': { '中文': '日本語' } },
  empty: [[], {}, [[]], [{}], { a: [], b: {} }, ''],
  proto: () => JSON.parse('{"__proto__": {"x": 1}, "a": [{"__proto__": 2}]}'),
  shapes: () => Array.from({ length: 3000 }, (_, i) => (i % 3 ? { id: i, name: `n${i}`, tags: [i, 'x'] } : { [`k${i}`]: i })),
  int32Run: () => Array.from({ length: 200000 }, (_, i) => i - 100000),
};
const edge = (name) => (typeof EDGES[name] === 'function' ? EDGES[name]() : EDGES[name]);

/** typed's answer and tree hash for value (synchronous, in the service's module). */
function typedOf(wasm, value) {
  const back = typed.roundTrip(wasm, value).value;
  return { value: back, treeHash: wasm.treeHash() };
}

test('worker gives the value and the C++ tree typed gives, and the same count, on edge documents', async () => {
  const wasm = await loadWasmModule();
  for (const name of Object.keys(EDGES)) {
    const value = edge(name);
    const expected = typedOf(wasm, value);
    const trip = await worker.roundTrip(value, { hashTree: true });
    assert.strictEqual(trip.treeHash, expected.treeHash, `${name}: the tree C++ built`);
    assert.deepStrictEqual(trip.value, expected.value, name);
    assert.strictEqual(JSON.stringify(trip.value), JSON.stringify(value), name);
    const counted = await worker.count(value, { hashTree: true });
    assert.strictEqual(counted.count, countNodes(value), `${name} count`);
    assert.strictEqual(counted.treeHash, expected.treeHash, `${name} count's tree`);
  }
  // A __proto__ key comes back an own property, as from typed, never the prototype.
  const back = (await worker.roundTrip(edge('proto'))).value;
  assert.strictEqual(Object.getPrototypeOf(back), Object.prototype);
  assert.deepStrictEqual(Object.keys(back), ['__proto__', 'a']);
});

test('worker on every transfer case: the value, the generator\'s tree, and create\'s tree, as typed', async () => {
  const wasm = await loadWasmModule();
  for (const name of TRANSFER_CASES) {
    const value = generate({ document: 'transfer', seed: 2, case: name });
    const reference = wasm.referenceTreeHash(name, 2);
    const trip = await worker.roundTrip(value, { hashTree: true });
    assert.strictEqual(trip.treeHash, reference, name);
    assert.deepStrictEqual(trip.value, value, name);
    const created = await worker.create(name, 2, { hashTree: true });
    assert.strictEqual(created.treeHash, reference, `${name} create`);
    assert.deepStrictEqual(created.value, typed.create(wasm, name, 2).value, `${name} create`);
    assert.strictEqual(created.inBytes, 0);
  }
});

test('what no approach carries is refused by worker too, and the next op works', async () => {
  const wasm = await loadWasmModule();
  await assert.rejects(worker.roundTrip(nest(513)), /MAX_DEPTH \(512 levels/);
  await assert.rejects(worker.roundTrip(undefined), /worker: a undefined has no JSON form/);
  await assert.rejects(worker.roundTrip({ a: 'x\ud800' }), /worker round trip/);
  await assert.rejects(worker.create('nope', 1), /unknown transfer case nope/);
  const value = { after: [1, 'two'] };
  assert.deepStrictEqual((await worker.roundTrip(value)).value, typedOf(wasm, value).value);
});

// A document of many nodes and characters: each way needs several slices at yieldMs 1 whatever the machine's speed.
const LARGE = () => Array.from({ length: 60000 }, (_, i) => ({ id: i, name: `name ${i}`, ok: i % 2 === 0, score: i / 7 }));

test('worker yields inside an op: characters posted and nodes read between turns are bounded in units, counted', async () => {
  const value = LARGE();
  const nodes = countNodes(value);
  const chars = JSON.stringify(value).length;
  const yieldMs = 1;
  const stats = {};
  let turns = 0;
  let timer = setImmediate(function tick() {
    turns++;
    timer = setImmediate(tick);
  });
  let trip;
  try {
    trip = await worker.roundTrip(value, { yieldMs, stats });
  } finally {
    clearImmediate(timer);
  }
  assert.deepStrictEqual(trip.value, value);
  // The bounds hold on any machine: the clock can only end a slice earlier.
  assert.ok(stats.maxReadNodes > 0 && stats.maxReadNodes <= worker.maxReadNodes(yieldMs), JSON.stringify(stats));
  assert.ok(stats.readSlices >= Math.ceil(nodes / worker.maxReadNodes(yieldMs)), JSON.stringify(stats));
  assert.ok(stats.maxSendChars > 0 && stats.maxSendChars <= worker.maxSendChars(yieldMs), JSON.stringify(stats));
  assert.ok(chars > 2 * worker.maxSendChars(yieldMs), `the document (${chars} characters) needs several sends`);
  // A turn between every two read slices and every two sends at the least.
  assert.ok(stats.yields >= stats.readSlices - 1 + Math.floor(chars / worker.maxSendChars(yieldMs)) - 1, JSON.stringify(stats));
  assert.ok(turns >= stats.readSlices, `${turns} turns of the loop for ${stats.readSlices} read slices`);
});

test('the reader shares a repeated short string, and stops sharing where they do not repeat', async () => {
  const repeated = Array.from({ length: 20000 }, (_, i) => `s${i % 100}`).concat(Array.from({ length: 1000 }, () => 'x'.repeat(SHARED_STRING_UNITS + 1)));
  const stats = {};
  assert.deepStrictEqual((await worker.roundTrip(repeated, { stats })).value, repeated);
  // 100 texts made once each, the 19 900 repeats given back as those; a string over SHARED_STRING_UNITS never shared.
  assert.strictEqual(stats.sharedStrings, 19900);
  // SHARED_TRIAL_STRINGS distinct ones first, not one repeat among them: the reader gives up, the repeats after too.
  const distinctFirst = Array.from({ length: SHARED_TRIAL_STRINGS + 1 }, (_, i) => `d${i}`).concat(Array.from({ length: 5000 }, () => 'a'));
  const given = {};
  assert.deepStrictEqual((await worker.roundTrip(distinctFirst, { stats: given })).value, distinctFirst);
  assert.strictEqual(given.sharedStrings, 0);
});

test('the workload runs worker ops awaited, validated, turns counted; an aborted signal stops the run', async () => {
  const wasm = await loadWasmModule();
  const workload = createTransferWorkload(wasm);
  for (const op of ['roundtrip', 'count', 'create']) {
    const result = await workload.run({ approach: 'worker', params: { op, case: 'objects_500', seed: 1, iterations: 3, yieldMs: 5 } });
    assert.strictEqual(result.validated, true, `${op}: ${JSON.stringify(result)}`);
    assert.strictEqual(result.treeHash, wasm.referenceTreeHash('objects_500', 1), op);
    assert.strictEqual(result.iterations, 3);
    assert.ok(result.yields >= 2, `a turn between ops at least: ${result.yields}`);
    assert.ok(op === 'create' ? result.boundaryBytes.in === 0 : result.boundaryBytes.in > 0, JSON.stringify(result.boundaryBytes));
  }
  const controller = new AbortController();
  const running = workload.run({ approach: 'worker', params: { op: 'roundtrip', case: 'numbers_10000', seed: 1, iterations: 10000, yieldMs: 1 } }, { signal: controller.signal });
  setImmediate(() => controller.abort());
  const stopped = await running;
  assert.strictEqual(stopped.interrupted, true);
  assert.strictEqual(stopped.validated, false);
  assert.ok(stopped.iterations < 10000);
});
