'use strict';
// The `embind` approach: nothing is encoded. C++ walks the JS value itself through emscripten::val (a call into JS
// for every type check, key, property and item: src/embind_codec.cpp) and builds the answer the same way. No byte
// buffer crosses, so inBytes and outBytes are null. A failure comes back as undefined (C++ cannot throw without
// exceptions), with the reason in the module's last error.
function roundTrip(wasm, value) {
  const out = wasm.exports.embindRoundTrip(value);
  if (out === undefined) wasm.fail('embind round trip');
  return { value: out, inBytes: null, outBytes: null };
}

function count(wasm, value) {
  return { count: wasm.checkCount(wasm.exports.embindCount(value), 'embind count'), inBytes: null, outBytes: null };
}

function create(wasm, caseName, seed) {
  const out = wasm.exports.embindCreate(caseName, seed);
  if (out === undefined) wasm.fail(`embind create ${caseName}`);
  return { value: out, inBytes: null, outBytes: null };
}

/** create on a user's document: C++ hands out a copy of the tree it keeps for it (wasm.loadDocument's id). */
function createDocument(wasm, id) {
  const out = wasm.exports.embindCreateDocument(id);
  if (out === undefined) wasm.fail('embind create document');
  return { value: out, inBytes: null, outBytes: null };
}

module.exports = { roundTrip, count, create, createDocument };
