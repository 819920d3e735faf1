'use strict';
// The C++ generator, written by yyjson, must give every vectors.json document byte for byte.
const test = require('node:test');
const assert = require('node:assert');
const { readVectors, sha256 } = require('@lab/payloads/js/vectors');
const { loadWasmModule } = require('../lib/wasm-module');

const vectors = readVectors();
const nameOf = (v) => `${v.document} seed ${v.seed} ${v.case === undefined ? `size ${v.size}` : v.case}`;

test('mulberry32 in C++ gives the pinned outputs', async () => {
  const wasm = await loadWasmModule();
  for (const { seed, outputs } of vectors.prng) {
    assert.deepStrictEqual(wasm.mulberry32(seed, outputs.length), outputs, `seed ${seed}`);
  }
});

for (const vector of vectors.documents) {
  test(`C++ generator + yyjson writes ${nameOf(vector)}`, async () => {
    const wasm = await loadWasmModule();
    const bytes = wasm.generateJson(vector);
    if (vector.json !== undefined) assert.strictEqual(bytes.toString('utf8'), vector.json);
    assert.strictEqual(bytes.length, vector.bytes);
    assert.strictEqual(sha256(bytes), vector.sha256);
  });
}

test('an unknown document or case is an error, not an empty output', async () => {
  const wasm = await loadWasmModule();
  assert.throws(() => wasm.generateJson({ document: 'nope', seed: 1, size: 1 }), /unknown document nope/);
  assert.throws(() => wasm.generateJson({ document: 'transfer', seed: 1, case: 'nope' }), /unknown transfer case nope/);
});
