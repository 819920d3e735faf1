'use strict';
// The typed layout (README.md, "The typed layout") read back into a JS value a bounded number of nodes at a time, for
// the worker approach (worker-approach.js): its sections arrive in one ArrayBuffer transferred from the worker thread,
// back to back (tape, string lengths, shapes, blob), and step() builds the value with an explicit stack of open
// containers, so that a slice stops anywhere and the next one goes on. typed-decoder.js is the one-call reader of the
// `typed` approach; this one trades its compiled object factories for being resumable.
//
// Strings are decoded from the blob in pieces of BLOB_PIECE_BYTES cut at character boundaries, never the whole blob
// at once (a 20 MB blob decodes in 5-10 ms, a block of its own): the C++ writer (src/typed_writer.cpp) adds strings in
// the tape's order, a shape's keys where the shape first appears, so the reader takes them in order from a window.
// One string is decoded whole, whatever its length: the one unit of work a slice cannot split.
const { TAG_BITS, TAG_MASK, INT32, INT64, STRING, ARRAY, INT32_ARRAY, OBJECT, SCALAR, DOUBLE, NULL, TRUE, TWO_32, COMPILE_AFTER_USES } = require('./typed-layout');

const BLOB_PIECE_BYTES = 1 << 19;
// Short strings are shared: one string per distinct text of at most SHARED_STRING_UNITS units, as JSON.parse
// internalizes its short values. A value's nodes all survive the scavenges that meet them while it is built, and a
// scavenge's pause is the time it copies them (README.md "The worker approach"): on npm's `next` packument 80 % of the
// strings are short and most repeat (versions, licenses, ranges), and a copy for each took a quarter of the value's
// bytes. A repeat's slice dies young, where a scavenge does not copy it. A document whose short strings seldom
// repeat (the generated records': random) would only pay for the table: a reader gives up sharing once its table
// holds SHARED_TRIAL_STRINGS and fewer lookups found a string than added one. At most SHARED_STRINGS_LIMIT a reader,
// the table emptied when full.
const SHARED_STRING_UNITS = 10;
const SHARED_TRIAL_STRINGS = 1 << 12;
const SHARED_STRINGS_LIMIT = 1 << 16;
// How often (in nodes) a slice looks at the clock: performance.now() costs more than a node.
const CLOCK_EVERY_NODES = 256;

// Shapes' object makers, kept across calls by their keys: a shape used often gets `() => ({"k0": undefined, ...})`,
// and its objects are filled in place. An object literal of known keys is made at its size with its final map, where
// keys added one by one grow it and walk its maps: less to allocate, and less for a scavenge to copy (what a large
// value's slices are blocked by: README.md "The worker approach"). Emptied when full, as typed-decoder.js' cache is.
const MAKER_CACHE_LIMIT = 4096;
const makers = new Map(); // keys joined by NUL -> {uses, make}

function makerOf(keys) {
  const id = keys.join('\u0000');
  let entry = makers.get(id);
  if (entry === undefined) {
    if (makers.size === MAKER_CACHE_LIMIT) makers.clear();
    entry = { uses: 0, make: null };
    makers.set(id, entry);
  }
  return entry;
}

const compileMaker = (keys) => new Function(`return {${keys.map((key) => `${JSON.stringify(key)}: undefined`).join(', ')}};`);

// A double's two words, through one reused view (little-endian, as the layout is).
const doubleView = new Float64Array(1);
const doubleWords = new Int32Array(doubleView.buffer);

/** Where each section lies in the transferred buffer: the worker writes them back to back, the blob last. */
function sectionsOf({ buffer, tapeWords, stringCount, shapeWords, blobBytes }) {
  const lengthsAt = tapeWords * 4;
  const shapesAt = lengthsAt + stringCount * 4;
  const blobAt = shapesAt + shapeWords * 4;
  if (blobAt + blobBytes > buffer.byteLength) throw new Error('typed: the sections run past the buffer the worker sent');
  return {
    tape: new Int32Array(buffer, 0, tapeWords),
    lengths: new Int32Array(buffer, lengthsAt, stringCount),
    shapeSection: new Int32Array(buffer, shapesAt, shapeWords),
    blob: Buffer.from(buffer, blobAt, blobBytes),
  };
}

class SlicedTypedReader {
  /** layout: {buffer, tapeWords, stringCount, shapeWords, blobBytes} as the worker thread sends it. */
  constructor(layout) {
    Object.assign(this, sectionsOf(layout));
    this.at = 0; // the next tape word
    this.nextString = 0; // the next string of the table
    this.blobAt = 0; // the next blob byte to decode
    this.window = ''; // decoded blob not yet taken, from windowAt
    this.windowAt = 0;
    this.sharedStrings = new Map(); // short string -> the one string for its text (shared()); null: given up
    this.sharedHits = 0;
    this.shapes = []; // per shape index seen so far: {keys, plain}
    // Open containers, frames reused by depth: {target, keys (objects), plain, run (int32 runs), i, n}; depth in use.
    this.frames = [];
    this.depth = 0;
    this.opened = false;
    this.started = false;
    this.value = undefined;
    /** Nodes placed (every value, as the count op counts them) and blob bytes decoded, all steps together. */
    this.nodes = 0;
    this.blobBytesDecoded = 0;
  }

  /** The next `units` UTF-16 code units of the blob as a string. */
  takeString(index) {
    if (index !== this.nextString) throw new Error(`typed: string ${index} out of order (expected ${this.nextString})`);
    const units = this.lengths[this.nextString++];
    if (this.windowAt + units <= this.window.length) {
      const text = this.window.slice(this.windowAt, this.windowAt + units);
      this.windowAt += units;
      return units <= SHARED_STRING_UNITS && this.sharedStrings !== null ? this.shared(text) : text;
    }
    let text = this.window.slice(this.windowAt);
    this.window = '';
    this.windowAt = 0;
    while (text.length < units) {
      const piece = this.decodePiece();
      const need = units - text.length;
      if (piece.length <= need) text += piece;
      else {
        text += piece.slice(0, need);
        this.window = piece;
        this.windowAt = need;
      }
    }
    return units <= SHARED_STRING_UNITS && this.sharedStrings !== null ? this.shared(text) : text;
  }

  /** The one string this reader keeps for text's content (text, the first time, or once sharing is given up). */
  shared(text) {
    const table = this.sharedStrings;
    const kept = table.get(text);
    if (kept !== undefined) {
      this.sharedHits++;
      return kept;
    }
    if (table.size === SHARED_TRIAL_STRINGS && this.sharedHits < table.size) {
      this.sharedStrings = null;
      return text;
    }
    if (table.size === SHARED_STRINGS_LIMIT) table.clear();
    table.set(text, text);
    return text;
  }

  /** Decodes the next piece of the blob, ending on a character boundary (so a surrogate pair is never split). */
  decodePiece() {
    const { blob } = this;
    if (this.blobAt >= blob.length) throw new Error('typed: the string lengths need more than the blob');
    let end = Math.min(blob.length, this.blobAt + BLOB_PIECE_BYTES);
    while (end < blob.length && (blob[end] & 0xc0) === 0x80) end--; // a continuation byte: back to its lead
    const piece = blob.toString('utf8', this.blobAt, end);
    this.blobBytesDecoded += end - this.blobAt;
    this.blobAt = end;
    return piece;
  }

  /** Shape n: new ones take their keys from the strings in order; the ones seen before are kept. */
  shape(n) {
    if (n < this.shapes.length) return this.shapes[n];
    if (n !== this.shapes.length) throw new Error(`typed: shape ${n} out of order (expected ${this.shapes.length})`);
    const first = this.shapeSection[2 * n];
    const count = this.shapeSection[2 * n + 1];
    const keys = new Array(count);
    for (let i = 0; i < count; i++) keys[i] = this.takeString(first + i);
    // `object["__proto__"] = v` would set the prototype: such a shape defines its properties instead, and gets no maker.
    const plain = !keys.includes('__proto__');
    const entry = { keys, plain, maker: plain ? makerOf(keys) : null };
    this.shapes.push(entry);
    return entry;
  }

  /** Marks a container as opened by the node just read: step() makes it the top of the stack once it is placed. */
  open(target, keys, plain, run, n) {
    this.opened = true;
    const frame = this.frames[this.depth] || (this.frames[this.depth] = { target: null, keys: null, plain: true, run: false, i: 0, n: 0 });
    frame.target = target;
    frame.keys = keys;
    frame.plain = plain;
    frame.run = run;
    frame.i = 0;
    frame.n = n;
  }

  /** Reads one node; a container comes back empty, its frame opened (open()) for step() to push. */
  node() {
    const { tape } = this;
    const word = tape[this.at++];
    const n = word >>> TAG_BITS;
    switch (word & TAG_MASK) {
      case INT32:
        return tape[this.at++];
      case INT64: {
        const low = tape[this.at++] >>> 0;
        return tape[this.at++] * TWO_32 + low;
      }
      case DOUBLE:
        doubleWords[0] = tape[this.at++];
        doubleWords[1] = tape[this.at++];
        return doubleView[0];
      case SCALAR:
        return n === NULL ? null : n === TRUE;
      case STRING:
        return this.takeString(n);
      case ARRAY: {
        const items = new Array(n);
        this.open(items, null, true, false, n);
        return items;
      }
      case INT32_ARRAY: {
        const items = new Array(n);
        this.open(items, null, true, true, n);
        return items;
      }
      case OBJECT: {
        const { keys, plain, maker } = this.shape(n);
        let object;
        if (maker === null) object = {};
        else if (maker.make !== null) object = maker.make();
        else {
          object = {};
          if (++maker.uses === COMPILE_AFTER_USES) maker.make = compileMaker(keys);
        }
        this.open(object, keys, plain, false, keys.length);
        return object;
      }
      default:
        throw new Error(`typed: tag ${word & TAG_MASK} from C++ is not one of the layout's`);
    }
  }

  /**
   * Places at most maxNodes more nodes, stopping earlier at the deadline (performance.now() ms, looked at every
   * CLOCK_EVERY_NODES nodes); returns true once the value is whole (this.value). An int32 run's items are nodes too.
   */
  step(deadline, maxNodes) {
    const { frames } = this;
    let budget = maxNodes;
    let sinceClock = 0;
    while (budget > 0) {
      const frame = this.depth === 0 ? null : frames[this.depth - 1];
      if (frame === null && this.started) break;
      if (frame !== null && frame.i === frame.n) {
        frame.target = null; // no hold on a finished container
        this.depth--;
        continue;
      }
      if (frame !== null && frame.run) {
        const k = Math.min(budget, frame.n - frame.i);
        const { target } = frame;
        const { tape } = this;
        for (let j = 0; j < k; j++) target[frame.i + j] = tape[this.at + j];
        frame.i += k;
        this.at += k;
        budget -= k;
        this.nodes += k;
        sinceClock += k;
      } else {
        this.started = true;
        this.opened = false;
        const value = this.node();
        if (frame === null) this.value = value;
        else if (frame.keys === null) frame.target[frame.i++] = value;
        else if (frame.plain) frame.target[frame.keys[frame.i++]] = value;
        else Object.defineProperty(frame.target, frame.keys[frame.i++], { value, enumerable: true, writable: true, configurable: true });
        if (this.opened) this.depth++;
        budget--;
        this.nodes++;
        sinceClock++;
      }
      if (sinceClock >= CLOCK_EVERY_NODES) {
        sinceClock = 0;
        if (performance.now() >= deadline) break;
      }
    }
    const done = this.started && this.depth === 0;
    if (done && this.at !== this.tape.length) throw new Error(`typed: ${this.tape.length - this.at} words on the tape after the value`);
    return done;
  }
}

module.exports = { SlicedTypedReader, BLOB_PIECE_BYTES, SHARED_STRING_UNITS, SHARED_TRIAL_STRINGS };
