'use strict';
// A Node service of seed 000: node-kit's contract around the stringify and parse workloads, with the approaches its
// Node line runs. Both workloads share one input cache.
const { createService, createInputs } = require('../node-kit');
const { stringifyWorkload } = require('./stringify-workload');
const { parseWorkload } = require('./parse-workload');

// Two documents and two texts at the 20 000-record cap are ~0.6 GB of heap; more would let alternating sizes grow
// the caches past that.
const CACHED_DOCUMENTS = 2;

/** options: node-kit's createService definition without workloads, plus approaches: {stringify, parse}. */
function serializationService(options) {
  const inputs = createInputs(CACHED_DOCUMENTS);
  const { approaches } = options;
  const definition = Object.assign({}, options, {
    workloads: { stringify: stringifyWorkload(approaches.stringify, inputs), parse: parseWorkload(approaches.parse, inputs) },
  });
  delete definition.approaches;
  return createService(definition);
}

module.exports = { serializationService };
