'use strict';
// The typed approach's C++ -> JS half: reads the typed layout (README.md, "The typed layout") that the last call
// wrote, through views of WASM memory. All state is module-level and reused across calls (calls are synchronous and
// never re-entered).
const {
  TAG_BITS, TAG_MASK, INT32, INT64, STRING, ARRAY, INT32_ARRAY, OBJECT, SCALAR, DOUBLE, NULL, TRUE, MAGIC, HEADER_BYTES, TWO_32, COMPILE_AFTER_USES,
} = require('./typed-layout');

const FACTORY_CACHE_LIMIT = 256;

/** `(d) => ({"k0": d(), ...})`: each key a JSON string literal, `__proto__` computed so it is a plain property. */
function compileFactory(keys) {
  const members = keys.map((key) => (key === '__proto__' ? '["__proto__"]: d()' : `${JSON.stringify(key)}: d()`));
  return new Function('d', `return {${members.join(', ')}};`);
}

// C++ -> JS: the tape as int32 words of WASM memory, the blob decoded into one string, each string's start in it
// (strings are sliced only when a value needs them: shapes' keys come from the cache), and per shape its entry in a
// cache kept across calls ({keys, lengths, uses, make}), found by the shape's keys as one string.
let words = null;
let at = 0;
let blob = '';
let offsets = new Int32Array(1 << 12);
const shapes = [];
const factoryCache = new Map();

function shapeEntry(first, count) {
  const id = blob.slice(offsets[first], offsets[first + count]);
  let entry = factoryCache.get(id);
  if (entry !== undefined && entry.lengths.length === count) {
    // The same characters: the same keys if they split at the same places.
    let i = 0;
    while (i < count && entry.lengths[i] === offsets[first + i + 1] - offsets[first + i]) i++;
    if (i === count) return entry;
  }
  if (factoryCache.size === FACTORY_CACHE_LIMIT) factoryCache.clear();
  const keys = new Array(count);
  const keyLengths = new Array(count);
  for (let i = 0; i < count; i++) {
    keys[i] = blob.slice(offsets[first + i], offsets[first + i + 1]);
    keyLengths[i] = keys[i].length;
  }
  // `object["__proto__"] = v` would set the prototype: such a shape defines its properties instead.
  entry = { keys, lengths: keyLengths, uses: 0, make: null, plain: !keys.includes('__proto__') };
  factoryCache.set(id, entry);
  return entry;
}

// A double's two words, through one reused view (little-endian, as WASM memory is).
const doubleView = new Float64Array(1);
const doubleWords = new Int32Array(doubleView.buffer);

function decodeNode() {
  const word = words[at++];
  const n = word >>> TAG_BITS;
  switch (word & TAG_MASK) {
    case INT32:
      return words[at++];
    case INT64: {
      const low = words[at++] >>> 0;
      return words[at++] * TWO_32 + low;
    }
    case STRING:
      return blob.slice(offsets[n], offsets[n + 1]);
    case DOUBLE:
      doubleWords[0] = words[at++];
      doubleWords[1] = words[at++];
      return doubleView[0];
    case SCALAR:
      return n === NULL ? null : n === TRUE;
    case ARRAY: {
      const items = new Array(n);
      for (let i = 0; i < n; i++) items[i] = decodeNode();
      return items;
    }
    case INT32_ARRAY: {
      const items = new Array(n);
      for (let i = 0; i < n; i++) items[i] = words[at + i];
      at += n;
      return items;
    }
    case OBJECT: {
      const shape = shapes[n];
      if (shape.make !== null) return shape.make(decodeNode);
      const keys = shape.keys;
      const object = {};
      if (shape.plain) {
        for (let i = 0; i < keys.length; i++) object[keys[i]] = decodeNode();
      } else {
        for (let i = 0; i < keys.length; i++) {
          Object.defineProperty(object, keys[i], { value: decodeNode(), enumerable: true, writable: true, configurable: true });
        }
      }
      if (++shape.uses === COMPILE_AFTER_USES) shape.make = compileFactory(keys);
      return object;
    }
    default:
      throw new Error(`typed: tag ${word & TAG_MASK} from C++ is not one of the layout's`);
  }
}

/** Reads the layout the last call wrote (its header is the output); returns the value and the bytes that crossed. */
function readOutput(wasm, inBytes) {
  words = wasm.heapWords();
  const header = wasm.exports.outputData() >>> 2;
  if (words[header] !== MAGIC) throw new Error('typed: the output has no typed header');
  const tapeWordCount = words[header + 2];
  const count = words[header + 3];
  const lengthsAt = words[header + 4] >>> 2;
  const blobAt = words[header + 5] >>> 0;
  const blobBytes = words[header + 6];
  const shapesAt = words[header + 7] >>> 2;
  const shapeWordCount = words[header + 8];
  blob = blobBytes === 0 ? '' : wasm.heapBuffer().toString('utf8', blobAt, blobAt + blobBytes);
  if (offsets.length <= count) offsets = new Int32Array(Math.max(offsets.length * 2, count + 1));
  let offset = 0;
  for (let i = 0; i < count; i++) {
    offsets[i] = offset;
    offset += words[lengthsAt + i];
  }
  offsets[count] = offset;
  shapes.length = 0;
  for (let i = shapesAt; i < shapesAt + shapeWordCount; i += 2) shapes.push(shapeEntry(words[i], words[i + 1]));
  at = words[header + 1] >>> 2;
  const value = decodeNode();
  words = null; // no hold on memory a later growth replaces
  blob = '';
  return { value, inBytes, outBytes: HEADER_BYTES + (tapeWordCount + count + shapeWordCount) * 4 + blobBytes };
}

module.exports = { readOutput };
