'use strict';
// The `stringify` workload of seed 000, shared by node14-fibers and node-async: each passes the approaches its Node
// line can run. The timed section is the approach alone; its output is hashed and compared with the reference after.
const { createInputs, sha256, msSince } = require('../node-kit');

const PARAMS = {
  size: { default: 1000, min: 1, max: 20000 }, // records of ~2 KB: the cap is a ~40 MB document
  seed: { default: 1, min: 0, max: 2147483647 },
  yieldMs: { default: 5, min: 1, max: 1000 },
};

// Two documents at the cap are ~0.5 GB of heap; more would let alternating sizes grow the cache past that.
const CACHED_DOCUMENTS = 2;

const native = (value) => ({ text: JSON.stringify(value), yields: 0 });

/** approaches: {name: (value, {yieldMs}) -> {text, yields} | Promise of it}; `native` is added first. */
function stringifyWorkload(approaches) {
  const all = Object.assign({ native }, approaches);
  const inputs = createInputs(CACHED_DOCUMENTS);
  return {
    approaches: Object.keys(all),
    params: PARAMS,
    caseOf: () => 'records',
    async run({ approach, params }) {
      const spec = { document: 'records', seed: params.seed, size: params.size };
      const value = inputs.input(spec);
      const expected = inputs.reference(spec);
      const started = process.hrtime.bigint();
      const { text, yields } = await all[approach](value, { yieldMs: params.yieldMs });
      const ms = msSince(started);
      const hash = sha256(text);
      return { ms, bytes: Buffer.byteLength(text), hash, validated: hash === expected.hash, reference: expected.reference, yields };
    },
  };
}

module.exports = { stringifyWorkload };
