'use strict';
// The `json` approach: a JS value crosses the boundary as JSON text. In: JSON.stringify -> UTF-8 straight into the
// module's input buffer -> yyjson read -> the C++ Value tree. Out: yyjson write -> UTF-8 read from WASM memory ->
// JSON.parse. Two full text passes on each side: what the other approaches are measured against.
const { bufferApproach } = require('./buffer-approach');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// A UTF-16 code unit never needs more than 3 UTF-8 bytes, so this much room always fits the text.
const MAX_UTF8_BYTES_PER_UNIT = 3;

/** Writes `value` as JSON into the input buffer; returns the bytes written. */
function writeInput(wasm, value) {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error(`json: a ${typeof value} has no JSON form`);
  const capacity = text.length * MAX_UTF8_BYTES_PER_UNIT;
  const start = wasm.exports.reserveInput(capacity);
  // reserveInput may grow memory: take the heap view only after it.
  return encoder.encodeInto(text, wasm.heap().subarray(start, start + capacity)).written;
}

/** The JSON the last call wrote, parsed, and its size. */
function readOutput(wasm, inBytes) {
  const bytes = wasm.outputView();
  return { value: JSON.parse(decoder.decode(bytes)), inBytes, outBytes: bytes.length };
}

module.exports = bufferApproach('json', 'json', { writeInput, readOutput });
