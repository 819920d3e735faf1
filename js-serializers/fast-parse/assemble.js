'use strict';
// What a batch builds joins the value (fast-parse.md): a batch's text parsed natively as `[...]` or `{...}`; an
// array's batches kept as parts and copied into one array once it closes (by concat, or by a loop over slices past a
// million children); an object's batches merged into its first, key by key, the merge stopped before the insertion
// that grows a wide object's hash table (hash-table-growth.js), so that the rehash starts a slice; a finished value
// attached to its parent. Parser methods (parser.js). Node 14 syntax.
const { isArrayIndex, indexKeyCount, tableCapacity, growthCount } = require('../hash-table-growth');
const { ARRAY, OBJECT, CLOSE_BRACKET, CLOSE_BRACE, WS, now, syntaxError, setMember } = require('./syntax');
const { addPart } = require('./frame');
const { APART_MIN_CHARS } = require('./bracket-count');

// An array parsed in several batches is concatenated in one step, in a slice of its own, up to this many children;
// one of at most ASSEMBLE_IN_PLACE_CHILDREN (microseconds of copying) is concatenated at once, in the slice that
// closed it: a slice break costs a turn of the event loop, and a tree has arrays of a few walked children by the
// hundred.
const MAX_CONCAT_CHILDREN = 1 << 20;
const ASSEMBLE_IN_PLACE_CHILDREN = 1 << 12;
// An object's hash table of at least this capacity is grown (every key rehashed, one step) at the start of a slice.
const MIN_GROWTH_ALONE_CAPACITY = 1 << 15;

const assembling = {
  /**
   * Parses text[start, end) natively as the members of frame (atClose: the container ends at `end`) and adds them.
   * lastApart: the batch may end with a large container, worth parsing apart (lastChildApart()).
   */
  flush(frame, start, end, atClose, lastApart = false) {
    WS.lastIndex = start;
    WS.test(this.text);
    if (WS.lastIndex >= end) {
      // No value: fine only for an empty container.
      if (!atClose || frame.needValue) throw syntaxError(this, end);
      return;
    }
    let batch = lastApart && end - start >= APART_MIN_CHARS ? this.lastChildApart(frame, start, end) : null;
    if (batch === null) {
      const slice = this.text.slice(start, end);
      batch = frame.kind === ARRAY ? this.native(`[${slice}]`, start - 1, start, end) : this.native(`{${slice}}`, start - 1, start, end);
    }
    this.merged = false;
    frame.lastBatch = end - start;
    if (frame.kind === ARRAY) {
      frame.elementChars = (end - start) / batch.length;
      addPart(frame, batch);
      this.children = batch.length;
      return;
    }
    this.merged = frame.value !== null;
    if (frame.value === null) {
      frame.value = batch;
      frame.namedKeys = -1;
      this.batchKeys = null;
      this.children = -1; // not counted (a key listing of a large object costs; merge() lists it if it must)
    } else {
      const keys = Object.keys(batch);
      this.children = keys.length; // at most: duplicate keys count once
      this.batchKeys = keys;
      frame.memberChars = keys.length > 0 ? (end - start) / keys.length : 0;
      this.merge(frame, batch, keys, 0, false);
    }
  },

  /**
   * Sets the members of batch, from keys[from] on, on the object frame is building. A wide object's hash table grows
   * in one step, a rehash of every key (hash-table-growth.js): when the insertion that grows a large one comes in
   * this batch, the merge stops before it and goes on at the start of the next slice (mergeRest), so that the rehash
   * is not added to a slice already spent. startsSlice: this merge is the first work of its slice.
   */
  merge(frame, batch, keys, from, startsSlice) {
    const target = frame.value;
    if (frame.namedKeys < 0) {
      const own = Object.keys(target);
      frame.namedKeys = own.length - indexKeyCount(own);
    }
    const named = Math.max(from, indexKeyCount(keys)); // Object.keys lists array indices first; they live elsewhere
    const capacity = tableCapacity(frame.namedKeys);
    let end = keys.length;
    if (capacity >= MIN_GROWTH_ALONE_CAPACITY) {
      const growing = named + (growthCount(capacity) - frame.namedKeys) - 1; // the index in keys of that insertion
      if (growing >= from + (startsSlice ? 1 : 0) && growing < end) end = growing;
    }
    for (let i = from; i < end; i++) setMember(target, keys[i], batch[keys[i]]);
    frame.namedKeys += Math.max(0, end - named);
    if (end < keys.length) {
      frame.rest = batch;
      frame.restKeys = keys;
      frame.restAt = end;
      this.breakSlice = true;
    }
  },

  /**
   * The rest of a batch whose merge stopped before the table's growth (the first work of this slice: the batch ended
   * the slice before), and the object's close if the batch was its last.
   */
  mergeRest(frame) {
    const batch = frame.rest;
    const keys = frame.restKeys;
    const at = frame.restAt;
    frame.rest = null;
    frame.restKeys = null;
    this.sliceChars += keys.length - at;
    this.merge(frame, batch, keys, at, true);
    if (frame.rest === null && frame.restClose >= 0) {
      const end = frame.restClose;
      frame.restClose = -1;
      this.close(frame, end);
    }
  },

  close(frame, at) {
    const code = this.text.charCodeAt(at);
    if (code !== (frame.kind === ARRAY ? CLOSE_BRACKET : CLOSE_BRACE)) throw syntaxError(this, at);
    if (frame.kind === OBJECT) {
      this.finish(frame, frame.value !== null ? frame.value : {}, at + 1);
    } else if (frame.parts === null || frame.parts.length === 1) {
      this.finish(frame, frame.parts !== null ? frame.parts[0] : [], at + 1);
    } else {
      // Several batches: copied into one array by assemble(), in a slice of its own unless they are few.
      frame.closeAt = at;
      frame.copied = frame.count > Math.min(MAX_CONCAT_CHILDREN, this.maxSliceChars);
      if (frame.count > ASSEMBLE_IN_PLACE_CHILDREN) this.breakSlice = true;
    }
  },

  /**
   * Copies the children of an array parsed in several batches into its one array: by concat (one step, about 5 ms a
   * million children), or, past MAX_CONCAT_CHILDREN or more children than a slice's characters, by a loop (half as
   * fast, but it stops at the deadline or the slice's characters) into an array made in a slice before. A child
   * copied counts as one character.
   */
  assemble(frame, deadline) {
    if (!frame.copied) {
      this.sliceChars += frame.count;
      this.finish(frame, Array.prototype.concat.apply([], frame.parts), frame.closeAt + 1);
      return;
    }
    if (frame.value === null) {
      // Making the array's storage is one step (about 4 ms a million children): a slice of its own.
      frame.value = arrayOfLength(frame.parts[0][0], frame.count);
      this.breakSlice = true;
      return;
    }
    const target = frame.value;
    const parts = frame.parts;
    let k = frame.filled;
    let p = frame.partIndex;
    while (p < parts.length) {
      const part = parts[p];
      for (let i = 0; i < part.length; i++) target[k++] = part[i];
      parts[p++] = null;
      this.sliceChars += part.length;
      if (now() >= deadline || this.sliceChars >= this.maxSliceChars) break;
    }
    frame.filled = k;
    frame.partIndex = p;
    if (p === parts.length) this.finish(frame, target, frame.closeAt + 1);
  },

  /** Pops frame, whose value ended at `end`, and attaches the value to its parent (or makes it the result). */
  finish(frame, value, end) {
    this.stack.pop();
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1] : null;
    if (parent === null) {
      WS.lastIndex = end;
      WS.test(this.text);
      if (WS.lastIndex < this.length) throw syntaxError(this, WS.lastIndex);
      this.result = value;
      return;
    }
    if (parent.kind === ARRAY) {
      if (parent.parts === null) addPart(parent, [value]);
      else {
        parent.parts[parent.parts.length - 1].push(value);
        parent.count++;
      }
    } else {
      if (parent.value === null) parent.value = {};
      setMember(parent.value, frame.key, value);
      if (parent.namedKeys >= 0 && !isArrayIndex(frame.key)) parent.namedKeys++;
      // A member walked is a large one: its siblings are likely alike, and are parsed member by member (members.js),
      // each from a slice of the text, rather than walked and merged key by key in their turn.
      parent.memberChars = end - frame.opened + 1;
    }
    parent.pos = end;
    parent.afterValue = true;
  },
};

/**
 * An array of `length` elements whose storage already suits `first` (the first child): new Array(length) is made for
 * small integers, and the first double or object written into it converts all of its storage at once, in one step
 * (about 9 ms for 2 M children); an array made from its first child keeps that child's kind as it grows.
 */
function arrayOfLength(first, length) {
  const array = [first];
  array.length = length;
  return array;
}

module.exports = { assembling, MIN_GROWTH_ALONE_CAPACITY };
