'use strict';
// The fibers-to-async experiment's workloads for a Node service: stringify and parse with the approaches its Node line
// runs, sharing one input cache and the serializer plugins (serializer-plugins.js), and node14-fibers' whole service
// around them.
const { createService, createInputs } = require('@lab/node-kit');
const { stringifyWorkload } = require('./stringify-workload');
const { parseWorkload } = require('./parse-workload');
const fastStringify = require('./fast-stringify');
const { hashText } = require('./text-hash');

// Two documents and two texts at the 20 000-record cap are ~0.6 GB of heap; more would let alternating sizes grow
// the caches past that.
const CACHED_DOCUMENTS = 2;

/**
 * approaches: {stringify, parse}, documents: node-kit's store (or null), plugins: serializer-plugins.js' registry (or
 * null) -> node-kit workloads {stringify, parse}.
 */
function serializationWorkloads(approaches, documents, plugins) {
  // Inputs are made without blocking: generated in slices, serialized by fast-stringify (byte-identical to native),
  // hashed in slices.
  const inputs = createInputs(CACHED_DOCUMENTS, {
    text: (value) => fastStringify.stringify(value),
    hash: (text) => hashText([text], { yieldMs: 5 }).then((digest) => digest.hash),
  });
  return {
    stringify: stringifyWorkload(approaches.stringify, inputs, documents, plugins),
    parse: parseWorkload(approaches.parse, inputs, documents, plugins),
  };
}

/**
 * options: node-kit's createService definition without workloads, plus approaches: {stringify, parse} and plugins:
 * serializer-plugins.js' registry (its state in /info's `plugins`, its checks stopped when the service closes).
 */
function serializationService(options) {
  const plugins = options.plugins;
  const definition = Object.assign({}, options, {
    workloads: (metrics, documents) => serializationWorkloads(options.approaches, documents, plugins),
    info: Object.assign({ plugins: plugins.info }, options.info),
    close: plugins.close,
  });
  delete definition.approaches;
  delete definition.plugins;
  return createService(definition);
}

module.exports = { serializationService, serializationWorkloads };
