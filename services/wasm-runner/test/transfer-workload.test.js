'use strict';
// The transfer workload on its own, without HTTP: every case round-trips to the reference bytes.
const test = require('node:test');
const assert = require('node:assert');
const { TRANSFER_CASES, generate } = require('../../../payloads/js/index');
const { loadWasmModule } = require('../lib/wasm-module');
const { jsonRoundTrip } = require('../lib/transfer/json-round-trip');
const { createTransferWorkload } = require('../lib/transfer/transfer-workload');

for (const name of TRANSFER_CASES) {
  test(`json round trip of ${name} validates against its vector`, async () => {
    const workload = createTransferWorkload(await loadWasmModule());
    const result = await workload.run({ approach: 'json', params: { case: name, seed: 1, iterations: 3 } });
    assert.strictEqual(result.reference, 'vector');
    assert.strictEqual(result.validated, true, JSON.stringify(result));
    assert.strictEqual(result.iterations, 3);
    assert.ok(result.ms >= 0 && result.msPerOp === result.ms / 3);
  });
}

test('an unpinned seed validates against native JSON.stringify', async () => {
  const workload = createTransferWorkload(await loadWasmModule());
  const result = await workload.run({ approach: 'json', params: { case: 'objects_10', seed: 12345, iterations: 1 } });
  assert.strictEqual(result.reference, 'native');
  assert.strictEqual(result.validated, true);
  assert.strictEqual(result.bytes, Buffer.byteLength(JSON.stringify(generate({ document: 'transfer', seed: 12345, case: 'objects_10' }))));
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
