'use strict';
// The fibers-to-async experiment's workloads for a Node service: stringify and parse with the approaches its Node line
// runs, sharing one input cache, and node14-fibers' whole service around them.
const { createService, createInputs } = require('../node-kit');
const { stringifyWorkload } = require('./stringify-workload');
const { parseWorkload } = require('./parse-workload');
const fastStringify = require('./fast-stringify');
const { hashText } = require('./text-hash');

// Two documents and two texts at the 20 000-record cap are ~0.6 GB of heap; more would let alternating sizes grow
// the caches past that.
const CACHED_DOCUMENTS = 2;

/** approaches: {stringify, parse}, documents: node-kit's store (or null) -> node-kit workloads {stringify, parse}. */
function serializationWorkloads(approaches, documents) {
  // Inputs are made without blocking: generated in slices, serialized by fast-stringify (byte-identical to native),
  // hashed in slices.
  const inputs = createInputs(CACHED_DOCUMENTS, {
    text: (value) => fastStringify.stringify(value),
    hash: (text) => hashText([text], { yieldMs: 5 }).then((digest) => digest.hash),
  });
  return { stringify: stringifyWorkload(approaches.stringify, inputs, documents), parse: parseWorkload(approaches.parse, inputs, documents) };
}

/** options: node-kit's createService definition without workloads, plus approaches: {stringify, parse}. */
function serializationService(options) {
  const definition = Object.assign({}, options, { workloads: (metrics, documents) => serializationWorkloads(options.approaches, documents) });
  delete definition.approaches;
  return createService(definition);
}

module.exports = { serializationService, serializationWorkloads };
