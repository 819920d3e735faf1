'use strict';
// The `json` approach of the transfer workload: one round trip of a JS value through C++/WASM as JSON text.
// JS -> JSON.stringify -> UTF-8 into WASM memory -> yyjson read -> native Value tree -> yyjson write ->
// UTF-8 out of WASM memory -> JSON.parse. The bytes the WASM side wrote stay readable through wasm.outputView()
// until the next call, which is how the workload hashes them after the timed loop.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// A UTF-16 code unit never needs more than 3 UTF-8 bytes, so this much room always fits the text.
const MAX_UTF8_BYTES_PER_UNIT = 3;

function jsonRoundTrip(wasm, input) {
  const text = JSON.stringify(input);
  const capacity = text.length * MAX_UTF8_BYTES_PER_UNIT;
  const start = wasm.exports.reserveInput(capacity);
  // reserveInput may grow memory: take the heap view only after it.
  const { written } = encoder.encodeInto(text, wasm.heap().subarray(start, start + capacity));
  wasm.check(wasm.exports.jsonRoundTrip(written), 'json round trip');
  return JSON.parse(decoder.decode(wasm.outputView()));
}

module.exports = { jsonRoundTrip };
