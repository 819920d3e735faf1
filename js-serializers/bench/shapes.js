'use strict';
// The shape family of bench/shapes-bench.js: documents of 10-40 MB of JSON at scale 1, one per way a document can be
// hard on a JSON serializer or parser (many keys in one object, one long string, millions of numbers, depth, many
// small containers, whitespace). Every shape is generated from a fixed seed (mulberry32, never Math.random), so the
// benchmark's child processes rebuild the same document and test/shapes.test.js checks the same shapes at a small
// scale. To extend the family, add an entry to SHAPES (its fields are described there); the benchmark and the test
// pick it up.
// Node 14 syntax: the Node 14 run of the test loads this file.
const { mulberry32 } = require('@lab/payloads');
const { shapes: torture } = require('../conformance/torture-corpus');

// Letters, digits, spaces and punctuation that JSON never escapes, for text a serializer only has to copy.
const PLAIN_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789     .,;:!?-()';
const PLAIN_CODES = Array.from(PLAIN_CHARS, (c) => c.charCodeAt(0));
// String.fromCharCode.apply takes its codes as arguments, which the stack bounds: build long text in blocks.
const BLOCK_CHARS = 8192;

/** A count scaled down (or up), never below 1. */
function scaled(count, scale) {
  return Math.max(1, Math.round(count * scale));
}

/** `chars` characters that need no escaping, as a flat string (built by join, so no rope for native to flatten). */
function plainText(chars, seed) {
  const next = mulberry32(seed);
  const blocks = [];
  const codes = [];
  for (let left = chars; left > 0; left -= BLOCK_CHARS) {
    codes.length = Math.min(BLOCK_CHARS, left);
    for (let k = 0; k < codes.length; k++) codes[k] = PLAIN_CODES[next() % PLAIN_CODES.length];
    blocks.push(String.fromCharCode.apply(null, codes));
  }
  return blocks.join('');
}

/** A short random word of `chars` letters from the generator `next`, flat like plainText's (char codes, not +=). */
function word(next, chars) {
  const codes = new Array(chars);
  for (let k = 0; k < chars; k++) codes[k] = PLAIN_CODES[next() % 52];
  return String.fromCharCode.apply(null, codes);
}

/**
 * One object with `keys` keys: every tenth one integer-like (V8 lists those first, in numeric order, whatever the
 * insertion order), the others `key_<i>`; values of four kinds in turn (integer, string of `valueChars`, small object,
 * small array), so that the width, not the values, is the hard part.
 */
function wideObject(keys, valueChars, seed) {
  const next = mulberry32(seed);
  const out = {};
  for (let i = 0; i < keys; i++) {
    const key = i % 10 === 0 ? String((keys - i) * 3) : `key_${i}`;
    const r = next();
    switch (i & 3) {
      case 0: out[key] = r; break;
      case 1: out[key] = word(next, valueChars); break;
      case 2: out[key] = { n: r % 1000, s: word(next, valueChars >> 1) }; break;
      default: out[key] = [r % 100, (r & 1) === 0, null];
    }
  }
  return out;
}

/** `count` doubles of full precision (their shortest round-trip text has 15-17 digits), 1e-2 to 1e2, both signs. */
function floats(count, seed) {
  const next = mulberry32(seed);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const r = next();
    out[i] = ((r & 1) === 0 ? 1 : -1) * ((next() + next() / 4294967296) / 4294967296) * 10 ** ((r >>> 1) % 4 - 1);
  }
  return out;
}

/** A complete binary tree `depth` levels below its root: 2^(depth+1) - 1 small nodes, few levels, many containers. */
function bushyTree(depth, seed) {
  const next = mulberry32(seed);
  let id = 0;
  const node = (below) => {
    const own = id++;
    const self = { id: own, label: `node ${own}`, weight: next() / 4294967296, children: [] };
    if (below > 0) self.children.push(node(below - 1), node(below - 1));
    return self;
  };
  return node(depth);
}

const TAGS = ['red', 'green', 'blue', 'urgent', 'archived', 'beta', 'ünïcode', '日本', 'emoji \ud83d\ude00', 'a "quoted" tag'];

/** `count` small records of mixed kinds: numbers, strings (some escaped, some non-ASCII), booleans, nulls, nesting. */
function mixedRecords(count, seed) {
  const next = mulberry32(seed);
  const records = new Array(count);
  for (let i = 0; i < count; i++) {
    const r = next();
    records[i] = {
      id: i,
      uuid: (r.toString(16) + next().toString(16) + next().toString(16)).padEnd(24, '0'),
      name: `${word(next, 6)} ${word(next, 8)}`,
      active: (r & 1) === 0,
      score: next() / 4294967296,
      count: r % 100000,
      tags: [TAGS[r % TAGS.length], TAGS[(r >>> 8) % TAGS.length]],
      location: { lat: (next() / 4294967296) * 180 - 90, lon: (next() / 4294967296) * 360 - 180 },
      note: r % 3 === 0 ? null : `line one\nline "two"\t${TAGS[(r >>> 4) % TAGS.length]}`,
      created: new Date(Date.UTC(2020, 0, 1) + (r % 1000) * 86400000).toISOString(),
    };
  }
  return { total: count, records };
}

/**
 * The family. name is unique (the benchmark's children find their shape by it, --shape filters on it); make(scale)
 * builds the value (scale 1: the sizes in the names; smaller for quick runs and tests); workloads says which of
 * stringify and parse measure it; a parse shape's text is JSON.stringify(value, null, space).
 * The deep tree keeps its 2000 levels at every scale (depth is its point) and scales the payload of each level; the
 * bushy tree loses a level each time the scale halves.
 */
const BOTH = ['stringify', 'parse'];
const SHAPES = [
  { name: 'wide object 100k keys', workloads: BOTH, make: (scale) => wideObject(scaled(100000, scale), 240, 11) },
  { name: 'wide object 300k keys', workloads: BOTH, make: (scale) => wideObject(scaled(300000, scale), 40, 12) },
  { name: 'wide object 1M keys', workloads: BOTH, make: (scale) => wideObject(scaled(1000000, scale), 8, 13) },
  { name: 'long plain string 20M chars', workloads: BOTH, make: (scale) => ({ id: 1, body: plainText(scaled(20000000, scale), 14) }) },
  {
    name: 'long escape-dense string 16M chars',
    workloads: BOTH,
    // Quotes, backslashes, control characters, non-ASCII, surrogate pairs and lone surrogates (torture-corpus's mix).
    make: (scale) => ({ id: 2, body: torture.escapeHeavyString(scaled(16000000, scale), 15) }),
  },
  // The peers' run of issue 34: many long strings, each longer than fast's LONG_STRING, in one array (json-ext's
  // stringifyChunked was ahead of fast's chunks() there, 0.68x native against 0.76x, before the SIMD scan).
  {
    name: 'long strings 30 x 500 KB',
    workloads: ['stringify'],
    make: (scale) => Array.from({ length: 30 }, (unused, i) => plainText(scaled(500 * 1024, scale), 30 + i)),
  },
  { name: 'float array 2M', workloads: BOTH, make: (scale) => floats(scaled(2000000, scale), 16) },
  { name: 'deep tree 2000 levels', workloads: BOTH, make: (scale) => torture.deepTree(1000, scaled(1600, scale)) },
  {
    name: 'bushy tree depth 17',
    workloads: BOTH,
    make: (scale) => bushyTree(Math.max(1, 17 + Math.round(Math.log2(scale))), 17),
  },
  { name: 'mixed records 64k', workloads: BOTH, make: (scale) => mixedRecords(scaled(64000, scale), 18) },
  { name: 'mixed records 64k pretty-printed', workloads: ['parse'], space: 2, make: (scale) => mixedRecords(scaled(64000, scale), 19) },
];

/** The JSON text a parse workload of `shape` reads, given the value make() built. */
function textOf(shape, value) {
  return JSON.stringify(value, null, shape.space);
}

/** The shapes whose name contains `filter` (all for ''); throws, naming the shapes, when none does. */
function shapesMatching(filter) {
  const found = SHAPES.filter((shape) => shape.name.includes(filter));
  if (found.length === 0) {
    throw new Error(`no shape's name contains "${filter}"; the shapes: ${SHAPES.map((s) => s.name).join(', ')}`);
  }
  return found;
}

/** The shape of this exact name; throws when there is none. */
function shapeNamed(name) {
  const shape = SHAPES.find((s) => s.name === name);
  if (!shape) throw new Error(`no shape is named "${name}"`);
  return shape;
}

module.exports = {
  SHAPES,
  textOf,
  shapesMatching,
  shapeNamed,
  generators: { plainText, wideObject, floats, bushyTree, mixedRecords },
};
