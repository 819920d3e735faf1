'use strict';
// The seed's transfer workload (shared/seeds/001): round trips of a spec transfer case between JS and C++/WASM.
// The round trips run in slices of about yieldMs with a turn of the event loop between them, so a long run never
// holds the loop: /healthz, /metrics and the concurrency cap keep working while it runs. Timed: the round trips only
// (the sum of the slices, not the turns between them). Generating the input, reading its reference and hashing the
// output happen outside the timed section.
const { createInputs, sha256 } = require('../../../../node-kit');
const { runControlled, controlFields } = require('../../../../js-serializers/run-control');
const { nextTurn, throwIfAborted } = require('../../../../js-serializers/slices');
const { TRANSFER_CASES } = require('../../../../payloads/js/index');
const { APPROACHES } = require('./approaches');

// Inputs cached at once (one per case and seed); the largest case is well under 1 MB as JS objects.
const CACHED_INPUTS = 32;

// The iterations cap bounds how long a run takes, no longer how long the service stops answering: a run gives the loop
// a turn every yieldMs, so /healthz and the concurrency cap work while it runs (the cap was 2000 while a run held the
// loop: 10000 would have blocked it for 7-9 s). The largest case (numbers_10000, about 105 KB of JSON) takes about
// 0.75 ms a round trip, so a run at the cap does about 7.5 s of round trips. Memory stays flat at any count (each
// round trip's garbage is dropped before the next, the module reuses its buffers): README.md has the figures.
const PARAMS = {
  case: { default: 'flat_small', values: TRANSFER_CASES },
  seed: { default: 1, min: 0, max: 2147483647 },
  iterations: { default: 100, min: 1, max: 10000 },
  yieldMs: { default: 5, min: 1, max: 1000 },
};

const NS_PER_MS = 1e6;

/**
 * `iterations` round trips in slices: each slice does at least one, and more while less than yieldMs has passed
 * since it started; between slices the loop gets a turn (setImmediate), and an aborted signal stops the run there
 * (it throws the signal's reason). progress {ms, done, yields} is kept up to date as it goes, so it also describes an
 * interrupted run: ms sums the slices only, not the turns between them. Resolves {hash, bytes} of the last round
 * trip's output.
 */
async function slicedRoundTrips(roundTrip, wasm, input, { iterations, yieldMs }, signal, progress) {
  const sliceNs = BigInt(yieldMs * NS_PER_MS);
  for (;;) {
    throwIfAborted(signal);
    const started = process.hrtime.bigint();
    let now;
    do {
      roundTrip(wasm, input);
      progress.done++;
      now = process.hrtime.bigint();
    } while (progress.done < iterations && now - started < sliceNs);
    progress.ms += Number(now - started) / NS_PER_MS;
    if (progress.done === iterations) break;
    await nextTurn();
    progress.yields++;
  }
  // Concurrent runs share the module's output buffer, and another run's slice may go next: hash this run's bytes
  // now, before anything else can run.
  const output = wasm.outputView();
  return { hash: sha256(output), bytes: output.length };
}

/** The workload definition for node-kit's createService; wasm: a loaded WasmModule (lib/wasm-module.js). */
function createTransferWorkload(wasm) {
  const inputs = createInputs(CACHED_INPUTS);
  return {
    approaches: Object.keys(APPROACHES),
    params: PARAMS,
    caseOf: (params) => params.case,
    async run({ approach, params }, { signal: clientSignal } = {}) {
      const spec = { document: 'transfer', seed: params.seed, case: params.case };
      const input = await inputs.input(spec);
      const { hash: expected, reference } = await inputs.reference(spec);
      const roundTrip = APPROACHES[approach];
      if (roundTrip === undefined) throw new TypeError(`unknown approach ${approach}`);

      const progress = { ms: 0, done: 0, yields: 0 };
      const run = await runControlled(
        (signal) => slicedRoundTrips(roundTrip, wasm, input, params, signal, progress),
        { timeoutMs: 0, clientSignal }, // no deadline: the run stops early only when its client goes away
      );
      const output = run.timing.interrupted ? null : run.value;
      const result = {
        ms: progress.ms,
        bytes: output ? output.bytes : null,
        hash: output ? output.hash : null,
        validated: output !== null && output.hash === expected,
        reference,
        iterations: progress.done,
        msPerOp: progress.done > 0 ? progress.ms / progress.done : null,
        yields: progress.yields,
      };
      return Object.assign(result, controlFields(run));
    },
  };
}

module.exports = { createTransferWorkload, TRANSFER_PARAMS: PARAMS };
