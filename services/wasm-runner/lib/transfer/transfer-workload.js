'use strict';
// The seed's transfer workload (shared/seeds/001): round trips of a spec transfer case between JS and C++/WASM.
// Timed: the `iterations` round trips only. Generating the input, reading its reference and hashing the output
// happen outside the timed section.
const { createInputs, msSince, sha256 } = require('../../../../node-kit');
const { TRANSFER_CASES } = require('../../../../payloads/js/index');
const { APPROACHES } = require('./approaches');

// Inputs cached at once (one per case and seed); the largest case is well under 1 MB as JS objects.
const CACHED_INPUTS = 32;

// The iterations cap bounds time, not memory: each round trip's garbage is dropped before the next, so memory stays
// flat (about 150 MB RSS and a 17 MB WASM heap even at 10000 iterations). But the loop holds the event loop, and the
// largest case (numbers_10000, about 110 KB of JSON) takes about 0.9 ms a round trip: 10000 would block for 9 s, past
// SHUTDOWN_TIMEOUT_MS (8 s); 2000 keeps the worst request under 2 s.
const PARAMS = {
  case: { default: 'flat_small', values: TRANSFER_CASES },
  seed: { default: 1, min: 0, max: 2147483647 },
  iterations: { default: 100, min: 1, max: 2000 },
};

/** The workload definition for node-kit's createService; wasm: a loaded WasmModule (lib/wasm-module.js). */
function createTransferWorkload(wasm) {
  const inputs = createInputs(CACHED_INPUTS);
  return {
    approaches: Object.keys(APPROACHES),
    params: PARAMS,
    caseOf: (params) => params.case,
    async run({ approach, params }) {
      const spec = { document: 'transfer', seed: params.seed, case: params.case };
      const input = inputs.input(spec);
      const { hash: expected, reference } = inputs.reference(spec);
      const roundTrip = APPROACHES[approach];

      const started = process.hrtime.bigint();
      for (let i = 0; i < params.iterations; i++) roundTrip(wasm, input);
      const ms = msSince(started);

      const output = wasm.outputView();
      const hash = sha256(output);
      return {
        ms,
        bytes: output.length,
        hash,
        validated: hash === expected,
        reference,
        iterations: params.iterations,
        msPerOp: ms / params.iterations,
      };
    },
  };
}

module.exports = { createTransferWorkload, TRANSFER_PARAMS: PARAMS };
