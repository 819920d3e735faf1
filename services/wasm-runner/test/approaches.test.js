'use strict';
// Every transfer approach (lib/transfer/approaches.js), every operation, on every spec transfer case and seeds 1-3:
// the value that comes back is the one that went in (or the one the spec generates), the count is the tree's, and the
// tree C++ built hashes like the tree its generator builds. Then edge values, which every approach must carry alike
// or refuse alike. No assertion involves time.
const test = require('node:test');
const assert = require('node:assert');
const { TRANSFER_CASES, generate } = require('@lab/payloads');
const { loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES } = require('../lib/transfer/approaches');

const NAMES = Object.keys(APPROACHES);
const SEEDS = [1, 2, 3];

/** The node count C++ returns: every value (object, array, string, number, boolean, null); keys are not nodes. */
function countNodes(value) {
  if (Array.isArray(value)) return value.reduce((sum, item) => sum + countNodes(item), 1);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum, item) => sum + countNodes(item), 1);
  return 1;
}

/** inBytes/outBytes: a byte count for the approaches with a buffer (`expected` when known), null for embind. */
function assertBytes(name, actual, expected) {
  if (name === 'embind') return assert.strictEqual(actual, null);
  if (expected !== undefined) return assert.strictEqual(actual, expected);
  assert.ok(Number.isInteger(actual) && actual > 0, `${name}: ${actual}`);
}

test('the approaches, in order: json (the default), embind, msgpack, msgpackr, typed', () => {
  assert.deepStrictEqual(NAMES, ['json', 'embind', 'msgpack', 'msgpackr', 'typed']);
});

for (const name of NAMES) {
  const approach = APPROACHES[name];
  for (const caseName of TRANSFER_CASES) {
    test(`${name}: roundTrip, count and create of ${caseName}, seeds ${SEEDS.join(', ')}`, async () => {
      const wasm = await loadWasmModule();
      for (const seed of SEEDS) {
        const input = generate({ document: 'transfer', seed, case: caseName });
        const reference = wasm.referenceTreeHash(caseName, seed);
        const what = `${caseName} seed ${seed}`;

        const trip = approach.roundTrip(wasm, input);
        assert.strictEqual(wasm.treeHash(), reference, `roundTrip tree of ${what}`);
        assert.deepStrictEqual(trip.value, input, `roundTrip of ${what}`);
        assertBytes(name, trip.inBytes);
        assertBytes(name, trip.outBytes);

        const counted = approach.count(wasm, input);
        assert.strictEqual(wasm.treeHash(), reference, `count tree of ${what}`);
        assert.strictEqual(counted.count, countNodes(input), `count of ${what}`);
        assertBytes(name, counted.inBytes, trip.inBytes);
        assertBytes(name, counted.outBytes, 0);

        const created = approach.create(wasm, caseName, seed);
        assert.strictEqual(wasm.treeHash(), reference, `create tree of ${what}`);
        assert.deepStrictEqual(created.value, input, `create of ${what}`);
        assertBytes(name, created.inBytes, 0);
        assertBytes(name, created.outBytes, trip.outBytes);
      }
    });
  }
}

test('the reference tree hash differs between cases and seeds, and names an unknown case', async () => {
  const wasm = await loadWasmModule();
  const hashes = new Set();
  for (const caseName of TRANSFER_CASES) {
    for (const seed of SEEDS) hashes.add(wasm.referenceTreeHash(caseName, seed));
  }
  assert.strictEqual(hashes.size, TRANSFER_CASES.length * SEEDS.length);
  assert.throws(() => wasm.referenceTreeHash('nope', 1), /unknown transfer case nope/);
});

test('heapBytes is the size of WASM memory, in 64 KiB pages', async () => {
  const wasm = await loadWasmModule();
  assert.ok(wasm.heapBytes() > 0 && wasm.heapBytes() % 65536 === 0, `${wasm.heapBytes()}`);
});

// Edge values. Each either comes back deep-equal from every approach with the same tree hash from every approach, or
// is refused by every approach with an error.
function nest(depth) {
  let value = [];
  for (let level = 1; level < depth; level++) value = level % 2 === 0 ? [value] : { deeper: value };
  return value;
}

function depthOf(value) {
  if (typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

function edgeValues(maxDepth) {
  const manyKeys = {};
  for (let k = 0; k < 70000; k++) manyKeys[`key${k}`] = k % 3 === 0 ? `v${k}` : k; // past 65535: MessagePack's map 32
  const alike = Array.from({ length: 100 }, (_, i) => ({ id: i, name: 'name', tags: ['id', 'name'], nested: { id: -i - 1 } }));
  return {
    'an empty object': {},
    'an empty array': [],
    'an empty string': '',
    'empty values inside': { a: {}, b: [], c: '', d: [{}, [], ''] },
    'non-ASCII and astral strings': { 'grüße': 'grüße, 日本, Ελληνικά', emoji: '🎉𝄞😀', mixed: ['a🎉b', '日本🎉', '𠀀'] },
    'a lone integer': 42,
    'a lone string': 'just a string',
    'integers at the int32 bounds and beyond, to 2^53 - 1': [
      0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, 4294967295, 4294967296, -4294967296,
      2 ** 40, -(2 ** 40), 9007199254740991, -9007199254740991,
    ],
    'arrays that are almost int32 runs': [[1, 2, 'x'], [1, 2147483648], ['x', 1, 2], [[1], 2], [1, 0.5], [1, null]],
    'null and the booleans': [null, true, false, { n: null, t: true, f: false }],
    'a lone null': null,
    'a lone boolean': false,
    'doubles that round-trip exactly': [0.1, -2.5, 1 / 3, 1.5e300, -1e-300, 5e-324, Number.MAX_VALUE, Number.EPSILON],
    'integers past 2^53 - 1, as the doubles JSON.parse makes of them': [2 ** 53, -(2 ** 53), 2 ** 64, 12345678901234567000, 1e21, -1e300],
    'every kind of JSON value, mixed': JSON.parse('{"a": [null, true, false, -7, 0.25, 9007199254740993, "s😀", {}, []], "b": {"c": [[[]]]}}'),
    [`nesting at exactly MAX_DEPTH (${maxDepth})`]: nest(maxDepth),
    'a 1 MB string': 'x'.repeat(512 * 1024) + 'ü'.repeat(256 * 1024),
    'an object with 70000 keys': manyKeys,
    'keys repeated across objects, and as values': alike,
  };
}

const REFUSED = {
  'nesting at MAX_DEPTH + 1': (maxDepth) => nest(maxDepth + 1),
};

test('edge values: nest() builds the depth it says', () => {
  assert.strictEqual(depthOf(nest(1)), 1);
  assert.strictEqual(depthOf(nest(2)), 2);
  assert.strictEqual(depthOf(nest(513)), 513);
});

test('edge values come back equal from every approach, with the same tree', async () => {
  const wasm = await loadWasmModule();
  for (const [what, value] of Object.entries(edgeValues(wasm.maxDepth))) {
    const hashes = new Map();
    for (const name of NAMES) {
      const trip = APPROACHES[name].roundTrip(wasm, value);
      hashes.set(name, wasm.treeHash());
      assert.deepStrictEqual(trip.value, value, `${name}: ${what}`);
      assert.strictEqual(APPROACHES[name].count(wasm, value).count, countNodes(value), `${name} count: ${what}`);
      assert.strictEqual(wasm.treeHash(), hashes.get(name), `${name} count tree: ${what}`);
    }
    assert.strictEqual(new Set(hashes.values()).size, 1, `${what}: ${JSON.stringify([...hashes])}`);
  }
});

test('edge values outside what the approaches carry are refused by every one, and the next call works', async () => {
  const wasm = await loadWasmModule();
  for (const [what, make] of Object.entries(REFUSED)) {
    const value = make(wasm.maxDepth);
    for (const name of NAMES) {
      for (const op of ['roundTrip', 'count']) {
        assert.throws(() => APPROACHES[name][op](wasm, value), Error, `${name} ${op}: ${what}`);
      }
      assert.deepStrictEqual(APPROACHES[name].roundTrip(wasm, { after: [what] }).value, { after: [what] }, name);
    }
  }
});

test('-0 arrives as 0 in every approach, the same tree as 0', async () => {
  const wasm = await loadWasmModule();
  for (const name of NAMES) {
    const back = APPROACHES[name].roundTrip(wasm, [-0, { z: -0 }]).value;
    assert.ok(Object.is(back[0], 0) && Object.is(back[1].z, 0), `${name}: ${back}`);
    const negative = wasm.treeHash();
    APPROACHES[name].roundTrip(wasm, [0, { z: 0 }]);
    assert.strictEqual(wasm.treeHash(), negative, name);
  }
});

test('NaN and the infinities, which JSON cannot write, are refused by every approach that reads numbers itself', async () => {
  const wasm = await loadWasmModule();
  // json crosses JSON.stringify's text, which writes them as null: no NaN ever reaches yyjson.
  for (const name of NAMES.filter((n) => n !== 'json')) {
    for (const number of [NaN, Infinity, -Infinity]) {
      assert.throws(() => APPROACHES[name].roundTrip(wasm, [number]), /NaN|Infinity|infinity/, `${name}: ${number}`);
    }
  }
});

test('nesting past MAX_DEPTH is refused by the C++ reader of every approach, naming the limit', async () => {
  const wasm = await loadWasmModule();
  for (const name of NAMES) {
    assert.throws(() => APPROACHES[name].roundTrip(wasm, nest(wasm.maxDepth + 1)), /MAX_DEPTH \(512 levels/, name);
    assert.throws(() => wasm.treeHash(), /no tree/, `${name}: a failed call leaves no tree to validate`);
  }
});

test('a key named __proto__ stays an own property in json, embind and typed', async () => {
  const wasm = await loadWasmModule();
  const value = JSON.parse('[{"__proto__": {"x": 1}, "a": 2}]');
  const many = Array.from({ length: 40 }, () => value[0]); // past the typed decoder's compile threshold
  for (const name of ['json', 'embind', 'typed']) {
    assert.deepStrictEqual(APPROACHES[name].roundTrip(wasm, value).value, value, name);
    assert.deepStrictEqual(APPROACHES[name].roundTrip(wasm, many).value, many, name);
  }
});

test('an unknown case is an error from every approach\'s create', async () => {
  const wasm = await loadWasmModule();
  for (const name of NAMES) {
    assert.throws(() => APPROACHES[name].create(wasm, 'nope', 1), /unknown transfer case nope/, name);
    assert.deepStrictEqual(APPROACHES[name].create(wasm, 'nested_d2', 1).value, generate({ document: 'transfer', seed: 1, case: 'nested_d2' }));
  }
});

test('objects of ever new keys keep coming back right (the typed caches of shapes and factories are bounded)', async () => {
  const wasm = await loadWasmModule();
  for (let round = 0; round < 3; round++) {
    const value = Array.from({ length: 2500 }, (_, i) => ({ [`k${round}_${i}`]: i, [`k${i % 7}`]: 'v', shared: [i] }));
    for (let repeat = 0; repeat < 20; repeat++) {
      assert.deepStrictEqual(APPROACHES.typed.roundTrip(wasm, value).value, value);
    }
  }
});
