'use strict';
// Inputs and their references, generated from payloads/SPEC.md once and kept in a small LRU, so that a /run times
// only the approach and never the generation or the reference. Every answer is a promise, cached as one, so runs that
// ask for the same input at once share its making; by default a document is built in slices (payloads' steps, run by
// runStepsInSlices), and a service can pass non-blocking ways to serialize and hash it (the serialization workloads
// pass fast-stringify's), so that making a 40 MB input never blocks the process, and never shows up as a block in a
// concurrent run's figures.
const { documentSteps } = require('@lab/payloads');
const { runStepsInSlices } = require('@lab/loop-kit/slices');
const { readVectors, sha256 } = require('@lab/payloads/js/vectors');

/**
 * A cache of at most `limit` entries, the least recently used dropped first: cached(key, make) returns the entry,
 * made by make() when missing. An entry that is a promise is forgotten if it rejects, so the next request tries again.
 */
function lru(limit) {
  const entries = new Map();
  return function cached(key, make) {
    if (entries.has(key)) {
      const value = entries.get(key);
      entries.delete(key);
      entries.set(key, value);
      return value;
    }
    const value = make();
    entries.set(key, value);
    Promise.resolve(value).catch(() => entries.get(key) === value && entries.delete(key));
    if (entries.size > limit) entries.delete(entries.keys().next().value);
    return value;
  };
}

const vectorHashes = new Map(readVectors().documents.map((v) => [keyOf(v), v.sha256]));

function keyOf(spec) {
  return [spec.document, spec.seed, spec.size === undefined ? '' : spec.size, spec.case === undefined ? '' : spec.case].join('/');
}

/**
 * A cache of spec documents (limit: how many documents, and how many texts, may be held at once; each service sizes
 * it against its caps). make (optional): {value(spec), text(value), hash(text)}, each returning a value or a promise;
 * the defaults are payloads' documentSteps run in slices, JSON.stringify and sha256.
 * input(spec) -> Promise of the value; text(spec) -> Promise of its JSON text (what a parse workload parses);
 * reference(spec) -> Promise of {hash, reference}: the vector's sha256 where vectors.json pins the spec, else the
 * sha256 of the JSON text of the value.
 */
function createInputs(limit, make = {}) {
  const makeValue = make.value || ((spec) => runStepsInSlices(documentSteps(spec)));
  const makeText = make.text || ((value) => JSON.stringify(value));
  const makeHash = make.hash || sha256;
  const values = lru(limit);
  const texts = lru(limit);
  const references = lru(64);
  const input = (spec) => values(keyOf(spec), () => Promise.resolve(makeValue(spec)));
  const text = (spec) => texts(keyOf(spec), () => input(spec).then(makeText));
  const reference = (spec) =>
    references(keyOf(spec), () => {
      const pinned = vectorHashes.get(keyOf(spec));
      if (pinned) return Promise.resolve({ hash: pinned, reference: 'vector' });
      return text(spec).then(makeHash).then((hash) => ({ hash, reference: 'native' }));
    });
  return { input, text, reference };
}

module.exports = { createInputs, sha256, lru };
