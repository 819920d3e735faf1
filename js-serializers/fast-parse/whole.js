'use strict';
// A large object the walk is about to descend into, parsed whole from a slice of the text when it closes within what
// a quarter of a slice parses (fast-parse.md, "How"): the walk would parse it in batches of at most
// MAX_BATCH_CHARS, each a copy of its text, and merge every batch after the first into the first key by key (0.14 us a
// key on Node 24): the 6363 aliases of @iconify-json/mdi (302 K characters, 2.1 ms of native's parse) cost 11 native
// calls and 5 900 keys merged (0.8 ms). A slice of a flat text is not copied, and one native call builds the object
// whole. Its close is found by counting braces (matching-close.js), blind to strings: native's parse is the check, and
// a wrong count costs its parse, after which the object is walked as before. Parser methods (parser.js). Node 14 syntax.
const { matchingClose } = require('../matching-close');
const { now } = require('./syntax');

// The object's parse may take this fraction of a slice at the last rate learnt: an object of small objects parses
// three times slower a character than a document's average (mdi's aliases 5.9 ns, the whole text 1.8), so that one
// misjudged takes about a slice, not three.
const WHOLE_SLICE_FRACTION = 1 / 4;
// Counts that did not close (or parses that failed) before the walk stops looking, in one parse: each read up to a
// quarter of a slice's characters for nothing.
const MAX_WHOLE_MISSES = 2;
// Braces a count may find (each an indexOf call, about 10 ns): past them the object is walked. Bounds the count on a
// text dense in braces to a fraction of a millisecond.
const MAX_WHOLE_BRACKETS = 1 << 15;

const wholeObjects = {
  /**
   * Where the object that opens at `at` closes, when it closes within what WHOLE_SLICE_FRACTION of a slice parses at
   * the last rate learnt (and MAX_WHOLE_BRACKETS braces); -1 otherwise. The characters counted are the slice's.
   */
  wholeClose(at) {
    // Before a rate is learnt, the prior (a slow one) would count a few thousand characters for nothing.
    if (!this.measured || this.wholeMisses >= MAX_WHOLE_MISSES) return -1;
    const chars = Math.min(this.maxSliceChars, Math.floor((this.sliceMs * WHOLE_SLICE_FRACTION) / this.priorMsPerChar));
    const end = Math.min(this.length, at + chars);
    const close = matchingClose(this.text.slice(at, end), 0, '{', '}', MAX_WHOLE_BRACKETS);
    this.sliceChars += close >= 0 ? close + 1 : end - at;
    if (close < 0) {
      this.wholeMisses++;
      return -1;
    }
    return at + close;
  },

  /**
   * The object frame opens, parsed whole from a slice of the text up to frame.knownClose (wholeClose()), in a slice of
   * its own when it would not fit in what is left of this one (left ms); rejected by native, it is walked as before.
   */
  wholeBatch(frame, left, started) {
    const open = frame.opened - 1;
    const end = frame.knownClose + 1;
    if (!this.sliceFresh && (end - open > this.charsLeft() || (end - open) * frame.parseRate.msPerChar > left)) {
      this.breakSlice = true;
      return;
    }
    frame.knownClose = -1;
    this.sliceChars += end - open;
    let value;
    try {
      value = this.native(this.text.slice(open, end), open, open, end);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      this.wholeMisses++; // a wrong count (a brace in a string) or a wrong text: the walk finds which, and native's error
      return;
    }
    this.merged = false;
    this.learn(frame, now() - started, end - open);
    this.finish(frame, value, end);
  },
};

module.exports = { wholeObjects };
