'use strict';
// The steps V8 takes in one piece, which no slicing in JavaScript can split, timed on a given document: the floor
// under the longest block of any non-blocking serializer on it. bench/shape-run.js reports them per (shape, approach)
// so that the verdict can tell a block fast could avoid from one nothing in JavaScript can; bench/v8-limits.js times
// the same steps on synthetic inputs of growing size, for the rates (µs per key, ms per MB).
// - Listing the keys of one object: Object.keys (for-in and Reflect.ownKeys build the same list first). Every
//   serializer lists the keys of every object it writes, so the widest object of a document sets a floor for all.
// - Making one flat string: what stringify() returns is one string, a copy of every piece of the output (a rope made
//   with + is flattened on first use: the same copy, moved to the caller). chunks() and pipeTo() never make it.
// - Growing one object key by key (parse): a wide object's keys live in a hash table that V8 grows by rehashing every
//   key into one twice the size, in the insertion that fills it. A parser that yields builds a wide object over many
//   slices, so one of them takes the last rehash of its widest object; JSON.parse does it inside its one block.
// And the work a serializer that yields must add to native's (marked extra: a floor under its time, beside native's):
// JSON.stringify serializes only whole objects and JSON.parse cannot parse into an object that exists, so an object
// split across batches has its keys listed from JavaScript and copied into smaller objects for stringify (native then
// lists those), and for parse the keys of every batch JSON.parse made are listed, and each inserted once more from
// JavaScript into the one growing object. JSON.parse decodes only a whole text, so a string too long for one slice
// reaches it in pieces, each copied out of the text with quotes added: one copy of the string's text more than native
// makes (checking the characters in JavaScript instead, and copying them, is a pass more too, and a slower one).
// Node 14 syntax (the lint's rule for js-serializers/).
const { performance } = require('perf_hooks');

// The size of the pieces a flat string is made from: fast's chunks (CHUNK_CHARS in fast-stringify.js).
const PIECE_CHARS = 1 << 16;
// The most keys of one object fast hands to JSON.stringify at once (MAX_HOLDER_KEYS in fast-stringify/batches.js).
const HOLDER_KEYS = 1024;
// The longest piece of a string's text fast hands to JSON.parse.
const { MAX_BATCH_CHARS: PARSE_PIECE_CHARS } = require('../fast-parse');
const { median } = require('@lab/bench-kit');

const ROUNDS = 3;

const collectGarbage = () => typeof global.gc === 'function' && global.gc();

/** text, flat: reading one character of a rope (a string made with +) makes V8 flatten the whole of it. */
const flatten = (text) => (text.length > 0 && text.charCodeAt(text.length >> 1), text);

/** The median ms of run() over `rounds` calls after one warm-up, each after a full GC when --expose-gc is on. */
function medianMs(run, rounds = ROUNDS) {
  const samples = [];
  for (let i = 0; i <= rounds; i++) {
    collectGarbage();
    const started = performance.now();
    const output = run();
    const ms = performance.now() - started;
    if (output === undefined) throw new Error('a timed step returned nothing: it may have been optimized away');
    if (i > 0) samples.push(ms);
  }
  return median(samples);
}

/** The object (not array) with the most own enumerable keys in value, and that count; {object: null, keys: 0} if none. */
function widestObject(value) {
  let widest = { object: null, keys: 0 };
  eachValue(value, (node, children) => {
    if (children !== null && !Array.isArray(node) && children.length > widest.keys) widest = { object: node, keys: children.length };
  });
  return widest;
}

/** The longest string value in value (keys are never cut), or ''. */
function longestString(value) {
  let longest = '';
  eachValue(value, (node) => {
    if (typeof node === 'string' && node.length > longest.length) longest = node;
  });
  return longest;
}

/**
 * Calls visit(node, children) on value and on every value inside it, without recursion (depth costs no call stack),
 * each object once: children are an array's elements or an object's values, null for a primitive.
 */
function eachValue(value, visit) {
  const seen = new Set();
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') {
      visit(node, null);
      continue;
    }
    if (seen.has(node)) continue;
    seen.add(node);
    const children = Array.isArray(node) ? node : Object.keys(node).map((key) => node[key]);
    visit(node, children);
    for (let i = 0; i < children.length; i++) stack.push(children[i]);
  }
}

/** text as pieces of PIECE_CHARS, as a serializer's output arrives (joining slices copies their characters too). */
function piecesOf(text) {
  const pieces = [];
  for (let at = 0; at < text.length; at += PIECE_CHARS) pieces.push(text.slice(at, at + PIECE_CHARS));
  return pieces;
}

/**
 * Copying every property of `object` into objects of HOLDER_KEYS properties each, from JavaScript: the ms of all the
 * copies, median of ROUNDS after a warm-up.
 */
function holderCopyMs(object) {
  const keys = Object.keys(object);
  return medianMs(() => {
    let holder = null;
    for (let k = 0; k < keys.length; k++) {
      if (k % HOLDER_KEYS === 0) holder = Object.create(null);
      holder[keys[k]] = object[keys[k]];
    }
    return holder;
  });
}

/**
 * The steps a stringify approach cannot avoid on value: [{step, ms, keys?, chars?, spread?, extra?}]. `flattens`: the
 * approach returns one flat string (native, fast's stringify()), rather than chunks. In one piece: listing the keys of
 * its widest object, and making the flat string. Spread over slices: JSON.stringify serializes only whole objects, so
 * a serializer that splits an object wider than a batch hands it to native as smaller objects, each key copied into
 * one from JavaScript. `extra`: work native's own serialization does not do (it lists the keys of the smaller objects
 * instead of the whole one's), so a floor under the time beside native's: the listing and the copy.
 */
function stringifySteps(value, { flattens, output }) {
  const steps = [];
  const widest = widestObject(value);
  if (widest.keys > 0) {
    const ms = medianMs(() => Object.keys(widest.object));
    const split = widest.keys > HOLDER_KEYS;
    steps.push({ step: `listing the keys of its widest object (${widest.keys}; ${((ms * 1000) / widest.keys).toFixed(2)} µs a key)`, ms, keys: widest.keys, extra: split });
    if (split) {
      steps.push({ step: `copying them into objects of ${HOLDER_KEYS} from JavaScript`, ms: holderCopyMs(widest.object), keys: widest.keys, spread: true, extra: true });
    }
  }
  if (flattens && output.length > 0) {
    const pieces = piecesOf(output);
    const ms = medianMs(() => pieces.join(''));
    steps.push({ step: `making the flat string of ${(output.length / 1e6).toFixed(1)} M characters (${(ms / (output.length / 1e6)).toFixed(2)} ms a million)`, ms, chars: output.length });
  }
  return steps;
}

/**
 * Building an object like `object` key by key from JavaScript, median of `rounds` builds (each after a full GC when
 * --expose-gc is on, so that a collection is less likely to land in an insertion): {longestMs, totalMs}, the longest
 * single insertion (where V8 rehashes the keys into a larger table) and all the insertions together. The total is
 * timed on builds of their own: reading the clock around every insertion adds a third to it.
 */
function insertionMs(object, rounds = ROUNDS) {
  const keys = Object.keys(object);
  const longest = [];
  for (let i = 0; i < rounds; i++) {
    collectGarbage();
    const copy = {};
    let most = 0;
    for (let k = 0; k < keys.length; k++) {
      const at = performance.now();
      copy[keys[k]] = object[keys[k]];
      most = Math.max(most, performance.now() - at);
    }
    longest.push(most);
  }
  const totalMs = medianMs(() => {
    const copy = {};
    for (let k = 0; k < keys.length; k++) copy[keys[k]] = object[keys[k]];
    return copy;
  }, rounds);
  return { longestMs: median(longest), totalMs };
}

/**
 * Listing the keys of `object` where a parser that builds it from batches gets them: JSON.parse of its members in
 * batches of up to `batchChars` characters (untimed), then Object.keys of every batch (timed, median of `rounds`). A
 * batch of a few hundred keys is a dictionary-mode object, whose listing sorts its keys by when they were added:
 * several times the cost per key of listing an object of fast properties. Smaller batches would be listed faster,
 * but JSON.parse builds each of their keys a new hidden class, which costs more than the listing saves.
 */
function batchListingMs(object, batchChars, rounds = ROUNDS) {
  const batches = [];
  let members = [];
  let chars = 0;
  for (const key of Object.keys(object)) {
    const member = `${JSON.stringify(key)}:${JSON.stringify(object[key])}`;
    if (members.length > 0 && chars + member.length > batchChars) {
      batches.push(JSON.parse(`{${members.join(',')}}`));
      members = [];
      chars = 0;
    }
    members.push(member);
    chars += member.length + 1;
  }
  if (members.length > 0) batches.push(JSON.parse(`{${members.join(',')}}`));
  return medianMs(() => {
    let listed = 0;
    for (let b = 0; b < batches.length; b++) listed += Object.keys(batches[b]).length;
    return listed;
  }, rounds);
}

/** The copies JSON.parse reads a long string's text from: pieces of PARSE_PIECE_CHARS, each in quotes, flat. */
function piecesWithQuotes(text) {
  const pieces = [];
  for (let at = 0; at < text.length; at += PARSE_PIECE_CHARS) pieces.push(flatten(`"${text.slice(at, at + PARSE_PIECE_CHARS)}"`));
  return pieces;
}

/**
 * The steps a parser that yields cannot avoid when building value: [{step, ms, keys?, chars?, spread?, extra?}].
 * Building its widest object: the longest insertion of its keys, where V8 grows its hash table, is one piece (a
 * block's floor, for any parser). When its text is longer than `splitChars` (what one batch holds), it spans batches,
 * and JSON.parse cannot parse into an object that exists: every key is listed from the batch native parsed it in,
 * and inserted from JavaScript (a parser that does not use native inserts them too, after its own, slower reading of
 * the text), spread over slices (spread: never a block; extra: a time's floor, added to native's own parse).
 * Decoding a string whose text is longer than `splitChars` in pieces: one more copy of its text (extra, spread).
 */
function parseSteps(value, { splitChars = Infinity } = {}) {
  const steps = [];
  const widest = widestObject(value);
  if (widest.keys > 0) {
    const { longestMs, totalMs } = insertionMs(widest.object);
    steps.push({ step: `growing its widest object (${widest.keys} keys) key by key, the longest insertion`, ms: longestMs, keys: widest.keys });
    if (JSON.stringify(widest.object).length > splitChars) {
      const listingMs = batchListingMs(widest.object, splitChars);
      steps.push({ step: `listing the ${widest.keys} keys of its widest object from the batches JSON.parse made of it (${((listingMs * 1000) / widest.keys).toFixed(2)} µs a key)`, ms: listingMs, keys: widest.keys, spread: true, extra: true });
      steps.push({ step: `inserting the ${widest.keys} keys of its widest object from JavaScript`, ms: totalMs, keys: widest.keys, spread: true, extra: true });
    }
  }
  const text = JSON.stringify(longestString(value));
  if (text.length > splitChars) {
    const ms = medianMs(() => piecesWithQuotes(text));
    steps.push({
      step: `copying the text of its longest string (${(text.length / 1e6).toFixed(1)} M characters) into pieces of ${PARSE_PIECE_CHARS} for JSON.parse (${(ms / (text.length / 1e6)).toFixed(2)} ms a million)`,
      ms,
      chars: text.length,
      spread: true,
      extra: true,
    });
  }
  return steps;
}

module.exports = { stringifySteps, parseSteps, insertionMs, batchListingMs, medianMs, median, collectGarbage, flatten, PIECE_CHARS, PARSE_PIECE_CHARS };
