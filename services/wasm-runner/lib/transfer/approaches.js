'use strict';
// The transfer workload's approaches, by name; the first is the default. Each is a function (wasm, input) -> output
// value that moves `input` into WASM, lets C++ build its native tree, and brings the tree back to JS, leaving the
// bytes the WASM side produced in wasm.outputView(). embind and msgpack join here with their own round trips.
const { jsonRoundTrip } = require('./json-round-trip');

const APPROACHES = {
  json: jsonRoundTrip,
};

module.exports = { APPROACHES };
