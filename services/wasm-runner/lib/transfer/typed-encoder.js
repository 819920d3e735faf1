'use strict';
// The typed approach's JS -> C++ half: writes a JS value in the typed layout (README.md, "The typed layout") straight
// into the module's input buffer. All state is module-level and reused across calls (calls are synchronous and never
// re-entered).
const {
  TAG_BITS, INT32, INT64, STRING, ARRAY, INT32_ARRAY, OBJECT, SCALAR, DOUBLE, NULL, FALSE, TRUE, MAX_PAYLOAD, MAGIC, HEADER_WORDS, HEADER_BYTES, TWO_32,
  MAX_UTF8_BYTES_PER_UNIT, COMPILE_AFTER_USES,
} = require('./typed-layout');

/** A growable Int32Array, reused: the string lengths and the shapes are each written into one. */
class Words {
  constructor(size) {
    this.array = new Int32Array(size);
    this.length = 0;
  }

  reserve(words) {
    if (this.length + words <= this.array.length) return;
    const bigger = new Int32Array(Math.max(this.array.length * 2, this.length + words));
    bigger.set(this.array.subarray(0, this.length));
    this.array = bigger;
  }

  view() {
    return this.array.subarray(0, this.length);
  }
}

/** `(o, e) => { e(o["k0"]); ... }`: the values of an object of known keys, each a constant-key (monomorphic) load. */
function compileReader(keys) {
  return new Function('o', 'e', keys.map((key) => `e(o[${JSON.stringify(key)}]);`).join('\n'));
}

// JS -> C++. The tape is written straight into the module's input buffer, after the room for the header: `tape` is
// WASM memory as int32 words, `pos` the next word, `limit` the end of the room reserved. Strings are appended to
// `text` (V8 concatenates lazily and the one UTF-8 write flattens it, faster here than joining an array); their
// lengths and the shapes go to small reused arrays, copied after the tape once their size is known.
let target = null; // the WasmModule being written to
let room = 64 * 1024; // bytes reserved for the input, grown (and kept) as inputs need
let tape = null;
let base = 0; // the input buffer's first word
let pos = 0;
let limit = 0;
const lengths = new Words(1 << 12);
let text = '';
const shapeWords = new Words(1 << 10);

// Shapes seen, kept across calls: by first key, each the head of a short chain of the shapes with that first key
// ({keys, call, index, uses, read, next}: `index` is the shape's number in call `call`). The last shape used is tried
// first: objects alike tend to come together, and then no lookup is needed at all.
const SHAPE_CACHE_LIMIT = 4096;
const SHAPE_CHAIN_LIMIT = 8;
const shapeCache = new Map();
let lastShape = null;
let call = 0;

function refuse(what) {
  return new Error(`typed: ${what}: JSON has no such value`);
}

// A double's two words, through one reused view (little-endian, as WASM memory is).
const doubleView = new Float64Array(1);
const doubleWords = new Int32Array(doubleView.buffer);

/** Makes room for `words` more tape words; growing the input buffer keeps what is written (std::vector::resize). */
function reserveWords(words) {
  if (pos + words <= limit) return;
  const used = pos - base;
  room = Math.max(room * 2, (used + words) * 4);
  base = target.exports.reserveInput(room) >>> 2;
  tape = target.heapWords(); // the buffer may have moved, and memory grown
  pos = base + used;
  limit = base + (room >>> 2);
}

function payload(count) {
  if (count > MAX_PAYLOAD) throw new Error(`typed: ${count} is more than the tape's ${MAX_PAYLOAD} items`);
  return count << TAG_BITS;
}

/** Appends a string to the table; returns its index. */
function addString(value) {
  lengths.reserve(1);
  lengths.array[lengths.length] = value.length;
  text += value;
  return lengths.length++;
}

function sameKeys(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}

/** The shape of `keys`, numbered in this call (`index`); its keys join the string table the first time in the call. */
function shapeOf(keys) {
  let shape = lastShape;
  if (shape === null || !sameKeys(shape.keys, keys)) {
    const first = keys.length === 0 ? '' : keys[0];
    const head = shapeCache.get(first);
    let chain = 0;
    for (shape = head; shape !== undefined && !sameKeys(shape.keys, keys); shape = shape.next) chain++;
    if (shape === undefined) {
      // Bounds what a stream of odd objects can hold: so many first keys, so many shapes per first key.
      if (shapeCache.size === SHAPE_CACHE_LIMIT) shapeCache.clear();
      shape = { keys, call: -1, index: 0, uses: 0, read: null, next: chain < SHAPE_CHAIN_LIMIT ? head : undefined };
      shapeCache.set(first, shape);
    }
    lastShape = shape;
  }
  if (shape.call !== call) {
    shape.call = call;
    shape.index = shapeWords.length >> 1;
    shapeWords.reserve(2);
    shapeWords.array[shapeWords.length++] = lengths.length;
    shapeWords.array[shapeWords.length++] = keys.length;
    for (let i = 0; i < keys.length; i++) addString(keys[i]);
  }
  return shape;
}

function encodeNode(value) {
  reserveWords(3);
  switch (typeof value) {
    case 'number':
      if ((value | 0) === value) {
        tape[pos++] = INT32;
        tape[pos++] = value;
      } else if (Number.isSafeInteger(value)) {
        const high = Math.floor(value / TWO_32);
        tape[pos++] = INT64;
        tape[pos++] = value - high * TWO_32; // the low 32 bits; the store wraps them to int32
        tape[pos++] = high;
      } else if (Number.isFinite(value)) {
        doubleView[0] = value;
        tape[pos++] = DOUBLE;
        tape[pos++] = doubleWords[0];
        tape[pos++] = doubleWords[1];
      } else {
        throw refuse(`${value}`);
      }
      return;
    case 'boolean':
      tape[pos++] = payload(value ? TRUE : FALSE) | SCALAR;
      return;
    case 'string':
      tape[pos++] = payload(lengths.length) | STRING;
      addString(value);
      return;
    case 'object':
      if (value === null) tape[pos++] = payload(NULL) | SCALAR;
      else if (Array.isArray(value)) encodeArray(value);
      else encodeObject(value);
      return;
    default:
      throw refuse(`a ${typeof value}`);
  }
}

function encodeArray(items) {
  const n = items.length;
  reserveWords(n + 1);
  const at = pos;
  // Copy while every item is an int32; the first that is not turns the run into an array of nodes.
  let i = 0;
  for (; i < n; i++) {
    const item = items[i];
    if (typeof item !== 'number' || (item | 0) !== item) break;
    tape[at + 1 + i] = item;
  }
  if (i === n && n > 0) {
    tape[at] = payload(n) | INT32_ARRAY;
    pos = at + 1 + n;
    return;
  }
  tape[at] = payload(n) | ARRAY;
  pos = at + 1;
  for (let k = 0; k < n; k++) encodeNode(items[k]);
}

function encodeObject(object) {
  const keys = Object.keys(object);
  const shape = shapeOf(keys);
  tape[pos++] = payload(shape.index) | OBJECT;
  if (shape.read !== null) {
    shape.read(object, encodeNode);
    return;
  }
  for (let i = 0; i < keys.length; i++) encodeNode(object[keys[i]]);
  if (++shape.uses === COMPILE_AFTER_USES) shape.read = compileReader(keys);
}

/** Copies `source` into `words` at word `at`: a loop for the few words most calls have, set() for many. */
function copyWords(words, at, source) {
  if (source.length < 64) {
    for (let i = 0; i < source.length; i++) words[at + i] = source.array[i];
  } else {
    words.set(source.view(), at);
  }
}

/** Encodes `value` into the module's input buffer; returns the bytes written. */
function writeInput(wasm, value) {
  target = wasm;
  base = wasm.exports.reserveInput(room) >>> 2;
  tape = wasm.heapWords();
  pos = base + HEADER_WORDS;
  limit = base + (room >>> 2);
  lengths.length = 0;
  shapeWords.length = 0;
  text = '';
  call++;
  encodeNode(value);
  // Buffer.write, like TextEncoder, would turn a lone surrogate into U+FFFD: refuse it instead, as json and embind do.
  if (!text.isWellFormed()) throw new Error('typed: a string with a lone surrogate is not valid Unicode');
  const tapeWordCount = pos - base - HEADER_WORDS;
  const count = lengths.length;
  const wordsBefore = HEADER_WORDS + tapeWordCount + count + shapeWords.length;
  const capacity = wordsBefore * 4 + text.length * MAX_UTF8_BYTES_PER_UNIT;
  if (capacity > room) {
    room = capacity;
    base = wasm.exports.reserveInput(room) >>> 2;
  }
  // Sections after the tape: the lengths, the shapes, and last the blob, the only one not 4-aligned.
  const words = wasm.heapWords();
  const start = base * 4;
  const lengthsAt = start + (HEADER_WORDS + tapeWordCount) * 4;
  const shapesAt = lengthsAt + count * 4;
  const blobAt = start + wordsBefore * 4;
  copyWords(words, lengthsAt >>> 2, lengths);
  copyWords(words, shapesAt >>> 2, shapeWords);
  const blobBytes = text.length === 0 ? 0 : wasm.heapBuffer().write(text, blobAt, start + capacity - blobAt);
  text = ''; // let the strings go
  words[base] = MAGIC;
  words[base + 1] = start + HEADER_BYTES;
  words[base + 2] = tapeWordCount;
  words[base + 3] = count;
  words[base + 4] = lengthsAt;
  words[base + 5] = blobAt;
  words[base + 6] = blobBytes;
  words[base + 7] = shapesAt;
  words[base + 8] = shapeWords.length;
  tape = null; // no hold on memory a later growth replaces
  return blobAt + blobBytes - start;
}

module.exports = { writeInput };
