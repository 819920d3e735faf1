'use strict';
// One serializer plugin (plugins/README.md): a Node module exporting `stringify` and/or `parse`, loaded and adapted to
// the approach shapes of stringify-approaches.js and parse-approaches.js, so that the workloads time, stream and
// validate it like any approach. Loaded in the service (to run it) and in the check's worker thread (to run the
// conformance corpus on it, plugin-check.js). Node 14 syntax.
const path = require('path');
const { createAbortController } = require('@lab/loop-kit/abort');

const WORKLOADS = ['stringify', 'parse'];
// An approach name goes into query strings, metric labels and scenario names: kept to what all of them take.
const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Why a plugin cannot be used: its message is what /info shows. */
class PluginError extends Error {}

/** An error as one line: its class and the start of its message. */
function describeError(error) {
  if (error instanceof Error) return `${error.name}: ${String(error.message).slice(0, 200)}`;
  return `a thrown ${typeof error}: ${String(error).slice(0, 200)}`;
}

/** The approach name a plugin gets when it declares none: its file or folder name, without `.js`. */
const defaultName = (source) => path.basename(source).replace(/\.js$/, '');

/**
 * Loads the module at source (an absolute path: a folder with package.json or index.js, or a .js file).
 * Returns {name, approaches: {stringify?, parse?}}; throws a PluginError saying why it cannot be used.
 */
function loadPlugin(source) {
  let exported;
  try {
    exported = require(source);
  } catch (error) {
    throw new PluginError(`threw at load: ${describeError(error)}`);
  }
  const usable = exported !== null && (typeof exported === 'object' || typeof exported === 'function');
  const workloads = usable ? WORKLOADS.filter((w) => typeof exported[w] === 'function') : [];
  if (workloads.length === 0) throw new PluginError('exports neither stringify nor parse as a function');
  const declared = typeof exported === 'object' ? exported.name : undefined; // a function's own .name is no declaration
  const name = declared === undefined ? defaultName(source) : declared;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new PluginError(`name ${JSON.stringify(name)} is not 1-40 lowercase letters, digits and dashes: export a \`name\` that is`);
  }
  const approaches = {};
  if (workloads.includes('stringify')) approaches.stringify = stringifyApproach(name, exported.stringify);
  if (workloads.includes('parse')) approaches.parse = parseApproach(exported.parse);
  return { name, approaches };
}

/** The signal a plugin is always given: the run's, or one that never aborts (the conformance corpus passes none). */
const signalOf = (options) => options.signal || createAbortController().signal;

/**
 * A plugin's stringify(value, {signal, yieldMs, stats}) -> Promise<text | undefined> or AsyncIterable<chunk> as an
 * approach of stringify-approaches.js' shape. stats.yields starts at null ("not said"): a plugin may count into it.
 */
function stringifyApproach(name, stringify) {
  const checked = (chunk) => {
    if (typeof chunk !== 'string') throw new TypeError(`plugin ${name} produced a ${typeof chunk} where a string was due`);
    return chunk;
  };
  return async function* pluginStringify(value, options) {
    options.stats.yields = null;
    const output = stringify(value, { signal: signalOf(options), yieldMs: options.yieldMs, stats: options.stats });
    if (output !== null && typeof output === 'object' && typeof output[Symbol.asyncIterator] === 'function') {
      for await (const chunk of output) yield checked(chunk);
      return;
    }
    const text = await output;
    if (text !== undefined) yield checked(text);
  };
}

/** A plugin's parse(text, {signal, yieldMs, stats}) -> Promise<value> as an approach of parse-approaches.js' shape. */
function parseApproach(parse) {
  return function pluginParse(text, options) {
    options.stats.yields = null;
    // A plugin that throws instead of rejecting is a rejection all the same.
    return Promise.resolve().then(() => parse(text, { signal: signalOf(options), yieldMs: options.yieldMs, stats: options.stats }));
  };
}

module.exports = { loadPlugin, defaultName, describeError, PluginError, WORKLOADS };
