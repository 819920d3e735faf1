'use strict';
// The transfer workload's approaches, by name; the first is the default. Each moves a value between JS and C++/WASM
// its own way, and does the same C++ work with it (src/exports.cpp): build the Value tree from what crossed, then
// produce the output from that tree. Every approach has three synchronous operations, each throwing an Error with
// the C++ message on failure:
//   roundTrip(wasm, value)       -> { value, inBytes, outBytes }  the value in, its tree, the tree back out
//   count(wasm, value)           -> { count, inBytes, outBytes }  the value in, its tree's node count back
//   create(wasm, caseName, seed) -> { value, inBytes, outBytes }  C++ generates the case's tree, and sends it out
// inBytes/outBytes: the bytes that crossed each way (0 for none; null for embind, which crosses value by value).
// After an operation, wasm.treeHash() hashes the tree it built (the validation; never timed). The approaches that
// cross as bytes in a buffer (all but embind) get the operations from buffer-approach.js, around their own two ends.
const APPROACHES = {
  json: require('./json-approach'),
  embind: require('./embind-approach'),
  msgpack: require('./msgpack-approach'),
  msgpackr: require('./msgpackr-approach'),
  typed: require('./typed-approach'),
};

// The approaches whose operations are asynchronous and give the event loop turns inside one op (`sliced: true`):
// roundTrip(value, options), count(value, options), create(caseName, seed, options), createDocument(tree, options),
// each a promise of the same answer plus the tree's hash (worker-approach.js says how and why).
const SLICED_APPROACHES = {
  worker: require('./worker-approach'),
};

// Every approach the workload offers, in /info's order.
const ALL_APPROACHES = Object.assign({}, APPROACHES, SLICED_APPROACHES);

module.exports = { APPROACHES, SLICED_APPROACHES, ALL_APPROACHES };
