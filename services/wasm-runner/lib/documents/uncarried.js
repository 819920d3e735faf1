'use strict';
// What an approach cannot carry in a user's document, found once when it is stored, so that a run on it fails with
// the value's JSON pointer instead of a wrong answer (or a C++ message that cannot say where). Three things, each
// checked by test/document-transfer.test.js:
// - a string or key with a lone surrogate: no approach carries it. The C++ tree holds UTF-8, which has no lone
//   surrogates: yyjson (json) and the typed approach refuse one; @msgpack/msgpack and msgpackr refuse it in short
//   strings and write U+FFFD in long ones; Emscripten 3.1.6's UTF-8 conversion (embind) merges it with the next code
//   unit into a wrong character no check can tell from a real one.
// - a key `__proto__`: @msgpack/msgpack's decoder refuses it and msgpackr's renames it `__proto_` (library behaviour,
//   README.md "What every reader accepts"); json, embind and typed carry it as an own property.
// - a number past the double range (`1e400`): JSON.parse makes it Infinity, which no C++ reader takes; json and
//   worker (JSON text in) carry what JSON.stringify writes for it, null, as native does.
const ALL = ['json', 'embind', 'msgpack', 'msgpackr', 'typed', 'worker'];
const RULES = [
  { approaches: ALL, why: 'a lone surrogate (an unpaired UTF-16 code unit), which UTF-8 cannot hold', test: (s) => typeof s === 'string' && !s.isWellFormed() },
  { approaches: ['msgpack', 'msgpackr'], why: 'the key __proto__, which the JS MessagePack decoders refuse or rename', test: (s, isKey) => isKey && s === '__proto__' },
  { approaches: ['embind', 'msgpack', 'msgpackr', 'typed'], why: 'a number past the double range, which JSON.parse makes Infinity (json carries it as JSON.stringify writes it: null)', test: (n) => typeof n === 'number' && !Number.isFinite(n) },
];

const pointerToken = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * [{approaches, why, path}] of a parsed document: for each rule, the JSON pointer of its first instance (depth-first,
 * in document order). Recursion is bounded by the service's depth cap (its C++ MAX_DEPTH).
 */
function findUncarried(value) {
  const found = new Map();
  const visit = (scalar, isKey, path) => {
    for (const rule of RULES) {
      if (!found.has(rule) && rule.test(scalar, isKey)) found.set(rule, { approaches: rule.approaches, why: rule.why, path });
    }
  };
  const walk = (node, path) => {
    if (typeof node === 'string' || typeof node === 'number') visit(node, false, path);
    else if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${path}/${i}`));
    else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        const at = `${path}/${pointerToken(key)}`;
        visit(key, true, at);
        walk(node[key], at);
      }
    }
  };
  walk(value, '');
  return RULES.filter((r) => found.has(r)).map((r) => found.get(r));
}

/** The first thing `approach` cannot carry ({why, path}), or null. */
const uncarriedBy = (uncarried, approach) => uncarried.find((u) => u.approaches.includes(approach)) || null;

module.exports = { findUncarried, uncarriedBy };
