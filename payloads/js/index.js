'use strict';
// Reference implementation of ../SPEC.md. CommonJS and Node 14 syntax, because the Node 14 fiber server loads it too.
const { runToEnd, timesSteps } = require('./steps');

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function mulberry32(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

function draws(seed) {
  const next = mulberry32(seed);
  const codes = [];
  return {
    int: (n) => next() % n,
    // Built from char codes, not by +=, so the result is a flat string like one read from the wire: a rope would
    // make every later JSON.stringify pay for flattening it and skew the benchmarks.
    str(n) {
      codes.length = n;
      for (let k = 0; k < n; k++) codes[k] = ALPHABET_CODES[next() >>> 26];
      return String.fromCharCode.apply(null, codes);
    },
  };
}

function times(n, make) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = make(i);
  return out;
}

// Each generator draws in key order: object literals evaluate their properties in source order. The two large
// documents are generators of steps (steps.js), so a service can build them in slices.
function record(d, i) {
  return {
    id: i,
    name: d.str(12),
    email: d.str(10) + '@' + d.str(8) + '.example',
    score: d.int(1000000),
    tags: times(5, () => d.str(8)),
    address: { street: d.str(20), city: d.str(10), zip: d.str(5), country: d.str(2) },
    history: times(10, () => ({ ts: d.int(2147483648), event: d.str(8), amount: d.int(100000) })),
    notes: d.str(1200),
  };
}

function* records(d, size) {
  return { size, records: yield* timesSteps(size, (i) => record(d, i)) };
}

function* objects(d, size) {
  return yield* timesSteps(size, () => ({ name: d.str(5), number: d.int(2147483648), strings: times(100, () => d.str(10)) }));
}

function flat(d, n) {
  const out = {};
  for (let k = 0; k < n; k++) out['f' + k] = k % 2 === 0 ? d.int(1000000) : d.str(8);
  return out;
}

function nested(d, depth) {
  const out = { level: depth, name: d.str(8), meta: { a: d.int(1000), b: d.str(4) } };
  if (depth > 1) out.child = nested(d, depth - 1);
  return out;
}

function tree(d, depth, branching) {
  const value = d.int(1000000);
  return { value, children: depth > 1 ? times(branching, () => tree(d, depth - 1, branching)) : [] };
}

const TRANSFER_CASES = {
  flat_small: (d) => flat(d, 10),
  flat_medium: (d) => flat(d, 100),
  flat_large: (d) => flat(d, 1000),
  nested_d2: (d) => nested(d, 2),
  nested_d3: (d) => nested(d, 3),
  nested_d4: (d) => nested(d, 4),
  numbers_100: (d) => times(100, () => d.int(2147483648)),
  numbers_1000: (d) => times(1000, () => d.int(2147483648)),
  numbers_10000: (d) => times(10000, () => d.int(2147483648)),
  objects_10: (d) => times(10, (i) => item(d, i)),
  objects_100: (d) => times(100, (i) => item(d, i)),
  objects_500: (d) => times(500, (i) => item(d, i)),
  tree_d4_b3: (d) => tree(d, 4, 3),
  tree_d6_b4: (d) => tree(d, 6, 4),
};

function item(d, i) {
  return { id: i, name: d.str(8), score: d.int(1000000), tags: times(3, () => d.str(4)) };
}

/** The steps that build a spec document (generate's argument), a yield after each record: runs in slices too. */
function* documentSteps(spec) {
  const d = draws(spec.seed);
  switch (spec.document) {
    case 'records':
      return yield* records(d, spec.size);
    case 'objects':
      return yield* objects(d, spec.size);
    case 'transfer': {
      const make = TRANSFER_CASES[spec.case];
      if (!make) throw new RangeError(`unknown transfer case ${spec.case}`);
      return make(d);
    }
    default:
      throw new RangeError(`unknown document ${spec.document}`);
  }
}

/** Generates a spec document. `spec` is {document: 'records'|'objects', seed, size} or {document: 'transfer', seed, case}. */
const generate = (spec) => runToEnd(documentSteps(spec));

module.exports = { ALPHABET, mulberry32, generate, documentSteps, TRANSFER_CASES: Object.keys(TRANSFER_CASES) };
