'use strict';
// A walked container's next children handed to native JSON.stringify in one batch (fast-stringify.md): each child
// costed in units (unitsInBatch: a scalar, a row of scalars, a wide container's child scaled from its first, an
// estimate of a small container's subtree), the batch filled to what is left of the slice at the container's learnt
// rates, a child that must be serialized alone ending it; an array's batch is a copy of its elements, an object's a
// holder with the same keys, and no read that could run code is moved ahead of one serialized before it. Walker
// methods (walker.js). Node 14 syntax.
const { types } = require('util');
const {
  SMALL_CONTAINER,
  MIN_ESTIMATE_PATH,
  ESTIMATE_MAX_CONTAINERS,
  ESTIMATE_PATH_PER_SLICE_UNIT,
  LONG_STRING,
  STRING_CHARS_PER_UNIT,
  LONG_UNIT_CHARS,
  newEstimateBudget,
  scalarArrayUnits,
  meanUnits,
  lastScalarUnits,
  shortScalarRow,
  isSideEffectFreeRead,
  startsWithScalar,
} = require('./estimate');
const { ARRAY, newPending, newRecord, now } = require('./frame');

// A container with more direct children than this is walked here: handed to native whole, it could be a slice of
// any length. (An array of scalars is the exception: below.)
const LARGE_CONTAINER = 1024;
// A child estimated from containers the estimate did not read goes whole into a batch only below this fraction of
// what one read in full may take (Walker.unitsInBatch).
const GUESSED_FRACTION = 1 / 4;
// A row of scalars this wide or narrower (a coordinate) is read whole, to tell that it runs no code (unitsInBatch's
// effectFree); only wider rows are counted as alike to the one before (isAlikeRecord).
const MAX_PAIR_WIDTH = 2;
// Object batches go through a holder object; past about a thousand keys, building and reading it gets slower per key.
const MAX_HOLDER_KEYS = 1024;
// The first batch of a container is a probe of this fraction of the slice, so that a misjudged first estimate cannot
// overshoot the slice by much.
const PROBE_FRACTION = 1 / 8;
// And each later batch holds at most this many times the units of the container's largest batch so far (never fewer
// than a probe's): a rate learnt from a probe is a rate of the container's first children only. On npm's record of
// `next` (2627 versions, the later ones 1.6 times the characters a unit of the first), the batch after a probe of the
// first 59 versions was sized at 4.4 ms from the probe's rate and took 8.2 ms (20 on a loaded machine); growing by
// doubling, no batch is more than twice what its frame has measured.
const BATCH_GROWTH = 2;
// And no batch is sized past this many characters of output. A text over 128 KB (V8's largest regular object: about
// 131 000 one-byte characters, 65 500 two-byte ones) is a large object on fresh pages of its own, and so is the
// buffer JSON.stringify grows it in, where a smaller one is made in the young generation's pages, used again and
// again: here, 0.5 ns a character up to 131 000 one-byte characters and 1.9 ns from 132 000 (87 page faults a
// call), two-byte 1.2 ns up to 65 000 and 4.3 from 66 000. Batches of several children were 100-250 K characters
// on the trees of the families. A single child larger than this still goes whole. Walked down to 65 000 characters
// instead (tried), the 4 MB trees of long strings took 0.8 times as long on Node 24 with a full collection before each
// call, but 1.1-1.35 times with none (the batches' texts, young, are copied by the scavenges that meet them, where a
// large object is never moved), and 1.1-1.8 times as long on Node 14, whose JSON.stringify returns a young rope.
const MAX_BATCH_CHARS = 60000;

/**
 * Whether child (a container that is no proxy) counts as the record a wide container's child before it was costed at
 * (Frame.record), without reading its values or listing its keys: an array of the record's width (wider than a pair,
 * whose values are read to tell that it runs no code), an object owning the record's last key. On 200 000 rows of
 * three numbers, reading each row's first and last element took four calls a row, and on 200 000 records of three
 * keys listing each one's keys was an allocation a record, as much of the walk's work as native's serialization of
 * them. Only the batch's size is guessed from it (as estimate.js' alike siblings), never the text: native reads them.
 */
function isAlikeRecord(record, child, isArray) {
  if (record === null || record.isArray !== isArray) return false;
  return isArray ? child.length === record.width : Object.prototype.hasOwnProperty.call(child, record.lastKey);
}

/**
 * A batch's one child when it is a container that native serializes the same alone as in a holder (it has no toJSON,
 * which native would call with its key), so that flush serializes it by itself, with no brackets of a holder to cut
 * off; null otherwise. Node 14's JSON.stringify returns a rope, and the cut (slice) flattens it first, a copy of the
 * batch: on a tree of long strings, whose batches are one large child each, a fifth of chunks()' time. Uncut,
 * stringify()'s join reads the rope as it is. (Node 24 returns a flat string, which slice does not copy.)
 */
function soleContainer(child) {
  return typeof child === 'object' && child !== null && !('toJSON' in child) ? child : null;
}

const batches = {
  /**
   * The estimated cost of a child in a native batch, in units (about one scalar value each), or -1 when the child
   * must be serialized alone: a long string, a proxy, a wide container, a container to walk (one whose subtree
   * would outlast sliceUnits, what a whole slice takes), or, in an array, a value whose toJSON native would call with
   * the batch's index instead of the array's. A child that fits a slice but not what is left of the batch starts the
   * next batch (fitIn below): walked, it would cost a descent, an estimate of each of its children and a native call
   * for each of its batches, and the walk would go on down the next child that straddles a batch's end.
   */
  unitsInBatch(frame, value, sliceUnits) {
    this.effectFree = false;
    switch (typeof value) {
      case 'string':
        return value.length > LONG_STRING ? -1 : 1 + value.length / STRING_CHARS_PER_UNIT;
      case 'bigint':
        return frame.kind === ARRAY ? -1 : 1;
      case 'object':
        if (value === null) return 1;
        break;
      case 'function':
        if (types.isProxy(value)) return -1;
        return frame.kind === ARRAY && 'toJSON' in value ? -1 : 1;
      default:
        return 1;
    }
    // `in` rather than a read: a toJSON getter must run once, when native serializes the value.
    if (types.isProxy(value) || (frame.kind === ARRAY && 'toJSON' in value)) return -1;
    const isArray = Array.isArray(value);
    if (!frame.small && isAlikeRecord(frame.record, value, isArray)) return frame.record.units;
    const keys = isArray ? null : this.keysOf(value);
    const width = isArray ? value.length : keys.length;
    if (isArray && startsWithScalar(value)) {
      const first = width > 0 ? value[0] : undefined;
      const lastUnits = width < 2 ? -1 : lastScalarUnits(value, width);
      const units = 1 + width * meanUnits(first, lastUnits);
      // A pair of scalars (a coordinate) both read without code, runs none when native serializes it: the reads after
      // it in the batch need no check (arrayBatch's mayHaveEffects). Checked, they were a fifth of the world atlas' time.
      this.effectFree = width === 0 || (width <= 2 && typeof first !== 'bigint' && (width === 1 || lastUnits >= 0));
      if (!frame.small && width > MAX_PAIR_WIDTH && width <= SMALL_CONTAINER) frame.record = newRecord(true, width, undefined, units);
      return (units <= sliceUnits || width <= LARGE_CONTAINER) ? units : -1;
    }
    if (width > LARGE_CONTAINER) return isArray ? this.rowsUnits(value, width, sliceUnits) : -1;
    if (!frame.small) {
      const units = (1 + width) * this.childScale(frame, value, width, sliceUnits);
      if (!isArray && width > 0 && width <= SMALL_CONTAINER) frame.record = newRecord(false, width, keys[width - 1], units);
      return units;
    }
    if (this.large.has(value)) return -1;
    const reads = Math.min(ESTIMATE_MAX_CONTAINERS, Math.max(MIN_ESTIMATE_PATH, sliceUnits * ESTIMATE_PATH_PER_SLICE_UNIT));
    const budget = newEstimateBudget(reads, sliceUnits);
    const started = now();
    const units = this.estimated(value, budget);
    this.estimateMs += now() - started;
    for (let i = 0; i < budget.large.length; i++) this.large.add(budget.large[i]);
    // An estimate that counted containers it did not read may be short several times over (MDN's CSS properties:
    // their first 32 of 660, scaled, came to a fifth of the rest): one child goes to native whole only when even
    // that would leave the slice in bounds.
    return units > (budget.guessed ? sliceUnits * GUESSED_FRACTION : sliceUnits) ? -1 : units;
  },

  /**
   * A long array whose first element is a short array of scalars (a list of coordinates, the rows of a table) costs as
   * many times that element's units as it is long, and goes whole into a batch when that fits what a slice takes
   * (sliceUnits) if its middle and last elements are rows of the same length too, or GUESSED_FRACTION of it otherwise;
   * -1 when it does not fit: walked, its elements each cost the checks of a read and an estimate, more than native's
   * work on them (the world atlas' 61 arcs of 1 to 17 thousand pairs: 44 % of its time, and at GUESSED_FRACTION alone
   * its five longest arcs were still walked, a fifth of it).
   */
  rowsUnits(array, width, sliceUnits) {
    const row = shortScalarRow(array, 0, -1);
    if (row === null) return -1;
    const units = 1 + width * (1 + row.length * scalarArrayUnits(row, row.length, row.length > 0 ? row[0] : undefined));
    const alike = shortScalarRow(array, width >> 1, row.length) !== null && shortScalarRow(array, width - 1, row.length) !== null;
    return units <= sliceUnits * (alike ? 1 : GUESSED_FRACTION) ? units : -1;
  },

  /**
   * How many units a container child of a wide container costs per unit of its width (1 + its children), from an
   * estimate of the first one (subtreeUnits): its siblings tend to be alike, and are counted on their width times
   * this. Counted as 1, the children of a wide container whose children are trees (MDN's interfaces, each with its
   * members' support tables) made units 40 times cheaper than the other containers' the learnt rates come from, and
   * the container's first batch, sized from those rates, a block of 15 ms.
   */
  childScale(frame, child, width, sliceUnits) {
    if (frame.childScale === 0) {
      const units = this.estimated(child, newEstimateBudget(MIN_ESTIMATE_PATH, sliceUnits));
      frame.childScale = Math.max(1, Math.min(units, sliceUnits) / (1 + width));
    }
    return frame.childScale;
  },

  /** Hands the next children of frame to native JSON.stringify, as many as fit in what is left of the slice. */
  batch(frame, deadline) {
    const started = now();
    this.estimateMsBefore = this.estimateMs;
    const left = Math.min((deadline - started) / frame.msPerUnit, this.charsLeft() / frame.charsPerUnit);
    const probe = left * PROBE_FRACTION;
    const grown = frame.measured ? Math.min(left, Math.max(probe, frame.largestBatchUnits * BATCH_GROWTH)) : probe;
    // A container not measured yet may have units far longer than the ones the rates were learnt from (a package's
    // versions after an array of small integers: 63 characters a unit against 2.7 learnt, and a first batch of 537 000
    // characters): its first batch is held to MAX_BATCH_CHARS as if each of its units were as long as a long scalar.
    const charsPerUnit = frame.measured ? frame.charsPerUnit : Math.max(frame.charsPerUnit, LONG_UNIT_CHARS);
    const maxUnits = Math.min(grown, MAX_BATCH_CHARS / charsPerUnit);
    // Half of what a whole slice takes at this container's rates (half: room for an estimate that is short): a
    // child larger is walked. One that is not, but is larger than what is left of this slice, ends the slice before
    // it and is the next one's first batch (fitIn).
    this.sliceUnits = Math.min(this.sliceMs / frame.msPerUnit, this.maxSliceChars / frame.charsPerUnit) / 2;
    this.unitsLeftInSlice = left;
    if (frame.kind === ARRAY) this.arrayBatch(frame, maxUnits, started);
    else this.objectBatch(frame, maxUnits, started);
  },

  /**
   * Whether a child of cost units goes in the batch that holds batchUnits so far: always when it fits maxUnits; as
   * the batch's first child, when it fits what is left of the slice, or when the slice has done nothing yet (its
   * cost fits a whole slice: unitsInBatch walks the others). Otherwise the batch ends before it, and, when it is
   * the first, the slice too.
   */
  fitIn(units, batchUnits, maxUnits) {
    if (batchUnits + units <= maxUnits) return true;
    if (batchUnits > 0) return false;
    if (this.firstStep || units <= this.unitsLeftInSlice) return true;
    this.endSlice = true;
    return false;
  },

  arrayBatch(frame, maxUnits, started) {
    const array = frame.container;
    const first = frame.index;
    // Every element costs at least one unit, so the batch has at most this many; filling a preallocated array is
    // measurably faster than push() on arrays of numbers, where the copy is a large part of the work.
    const end = Math.min(frame.length, first + Math.max(1, Math.ceil(maxUnits)));
    const values = new Array(end - first);
    let index = first;
    let units = 0;
    let mayHaveEffects = false; // a batched value whose serialization can run code (toJSON, getters)
    while (index < end && (units < maxUnits || index === first)) {
      const pending = frame.pending;
      // Native reads an element only after serializing the previous one; a getter here would run too early.
      if (pending === null && mayHaveEffects && !isSideEffectFreeRead(frame, index)) break;
      const value = pending === null ? array[index] : pending.value;
      frame.pending = null;
      const type = typeof value;
      if (type === 'number' || type === 'boolean' || type === 'undefined' || value === null) {
        units++;
      } else {
        const cost = pending === null ? this.unitsInBatch(frame, value, this.sliceUnits) : pending.cost;
        if (cost < 0) {
          values.length = index - first;
          frame.index = index + 1;
          this.flush(frame, values, null, units, first, started);
          this.single(frame, index, value);
          return;
        }
        const effectFree = pending === null && this.effectFree;
        if (!this.fitIn(cost, units, maxUnits)) {
          frame.pending = newPending(value, cost); // read already: not read again (a getter runs once)
          break;
        }
        units += cost;
        mayHaveEffects = mayHaveEffects || ((type === 'object' || type === 'function') && !effectFree);
      }
      values[index - first] = value;
      index++;
    }
    values.length = index - first;
    frame.index = index;
    this.flush(frame, values, null, units, first, started);
  },

  objectBatch(frame, maxUnits, started) {
    const object = frame.container;
    const keys = frame.keys;
    const end = Math.min(frame.length, frame.index + MAX_HOLDER_KEYS);
    // Null prototype: no __proto__ setter, and no new hidden classes for the one-off key sets.
    const holder = Object.create(null);
    const values = [];
    let units = 0;
    let mayHaveEffects = false;
    while (frame.index < end && (units < maxUnits || values.length === 0)) {
      const key = keys[frame.index];
      const pending = frame.pending;
      if (pending === null && mayHaveEffects && !isSideEffectFreeRead(frame, key)) break;
      // A holder property named toJSON would make the holder itself toJSON-able.
      if (key === 'toJSON') {
        if (values.length > 0) break;
        frame.index++;
        this.single(frame, key, object[key]);
        return;
      }
      const value = pending === null ? object[key] : pending.value;
      frame.pending = null;
      const cost = pending === null ? this.unitsInBatch(frame, value, this.sliceUnits) : pending.cost;
      if (cost >= 0 && !this.fitIn(cost, units, maxUnits)) {
        frame.pending = newPending(value, cost); // read already: not read again (a getter runs once)
        break;
      }
      frame.index++;
      if (cost < 0) {
        this.flush(frame, values, holder, units, 0, started);
        this.single(frame, key, value);
        return;
      }
      holder[key] = value;
      values.push(key);
      units += cost;
      const type = typeof value;
      mayHaveEffects = mayHaveEffects || (type === 'object' && value !== null) || type === 'function' || type === 'bigint';
    }
    this.flush(frame, values, holder, units, 0, started);
  },

  /** Serializes a batch natively; first is the index of an array batch's first element, which decides its comma. */
  flush(frame, values, holder, units, first, started) {
    if (values.length === 0) return;
    const key = holder === null ? first : values[0];
    const alone = values.length === 1 ? soleContainer(holder === null ? values[0] : holder[key]) : null;
    const text = JSON.stringify(alone !== null ? alone : holder === null ? values : holder);
    // An estimate's reads are not work per unit of the batch: counted in, one that reads 64 containers for a batch
    // of two scalars made the container's rate, and every size taken from it, tens of times too small.
    const ms = now() - started - (this.estimateMs - this.estimateMsBefore);
    frame.learn(ms, units, text.length);
    if (units > frame.largestBatchUnits) frame.largestBatchUnits = units;
    this.teach(ms, units, text.length);
    this.nativeCalls++;
    if (alone !== null) {
      const lead = this.lead(frame, key);
      if (lead !== '') this.emit(lead);
      this.emit(text);
    } else if (holder === null) {
      if (first > 0) this.emit(',');
      this.emit(text.slice(1, -1));
    } else if (text.length > 2) {
      if (frame.wrote) this.emit(',');
      frame.wrote = true;
      this.emit(text.slice(1, -1));
    }
  },
};

module.exports = { batches, LARGE_CONTAINER, MAX_BATCH_CHARS };
