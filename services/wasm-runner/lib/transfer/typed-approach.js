'use strict';
// The `typed` approach, the lab's own, designed for speed: no text to parse, no call per value. Both ways the value
// crosses as four sections in WASM memory, found through a header (README.md, "The typed layout";
// src/typed_codec.h): a tape of int32 words (tagged nodes), a table of string lengths in UTF-16 units, one UTF-8
// blob with every string, and the shapes (the key lists of the objects).
// - Arrays whose items are all int32 cross as one run of words (the wasm-transfer experiment's numbers family): a copy,
//   no per-item tags.
// - Strings are concatenated and encoded once, straight into WASM memory, decoded once on the way back and sliced
//   (Buffer's UTF-8 write and toString over WASM memory: the same work as TextEncoder/TextDecoder, less per call).
// - JS writes the tape straight into the module's input buffer; C++ reads every section in place and writes its
//   answer into buffers it reuses, which JS reads through views.
// - Objects with the same keys in the same order share a shape whose keys cross once: an object node is its shape
//   and its values, so neither side looks a key up per member (interning single keys cost a Map lookup per member
//   here and a hash per member in C++, and was slower on every case measured).
// - A shape used often gets compiled code, kept across calls: on the way in a reader of constant-key (monomorphic)
//   loads, on the way back an object factory `(d) => ({"id": d(), "name": d(), ...})`: V8 builds an object literal
//   of known keys several times faster than it adds keys one by one (a 1000-key object 6x: past 128 added keys V8
//   turns an object into a dictionary).
// typed-encoder.js is the way in, typed-decoder.js the way back, typed-layout.js their shared numbers.
const { writeInput } = require('./typed-encoder');
const { readOutput } = require('./typed-decoder');

function roundTrip(wasm, value) {
  const inBytes = writeInput(wasm, value);
  wasm.check(wasm.exports.typedRoundTrip(inBytes), 'typed round trip');
  return readOutput(wasm, inBytes);
}

function count(wasm, value) {
  const inBytes = writeInput(wasm, value);
  return { count: wasm.checkCount(wasm.exports.typedCount(inBytes), 'typed count'), inBytes, outBytes: 0 };
}

function create(wasm, caseName, seed) {
  wasm.check(wasm.exports.typedCreate(caseName, seed), `typed create ${caseName}`);
  return readOutput(wasm, 0);
}

/** create on a user's document: C++ hands out a copy of the tree it keeps for it (wasm.loadDocument's id). */
function createDocument(wasm, id) {
  wasm.check(wasm.exports.typedCreateDocument(id), 'typed create document');
  return readOutput(wasm, 0);
}

module.exports = { roundTrip, count, create, createDocument };
