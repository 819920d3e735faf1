'use strict';
// Inputs and their references, generated from payloads/SPEC.md once and kept in a small LRU, so that a /run times
// only the approach and never the generation or the reference.
const { generate } = require('../payloads/js/index');
const { readVectors, sha256 } = require('../payloads/js/vectors');

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
 * it against its caps).
 * input(spec) -> the value; text(spec) -> its native JSON text (what a parse workload parses);
 * reference(spec) -> {hash, reference}: the vector's sha256 where vectors.json pins the spec, else the sha256 of
 * native JSON.stringify of the value.
 */
function createInputs(limit) {
  const values = lru(limit);
  const texts = lru(limit);
  const references = lru(64);
  const input = (spec) => values(keyOf(spec), () => generate(spec));
  const text = (spec) => texts(keyOf(spec), () => JSON.stringify(input(spec)));
  const reference = (spec) =>
    references(keyOf(spec), () => {
      const pinned = vectorHashes.get(keyOf(spec));
      return pinned ? { hash: pinned, reference: 'vector' } : { hash: sha256(JSON.stringify(input(spec))), reference: 'native' };
    });
  return { input, text, reference };
}

module.exports = { createInputs, sha256 };
