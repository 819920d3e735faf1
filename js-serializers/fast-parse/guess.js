'use strict';
// Batch ends guessed without reading the batch (fast-parse.md, "guessed"): once a scanned batch shows that the text
// around the commas between a container's children is always the same (its signature, e.g. `},{"id":`), or an
// object's keys share a start, the next batches end at the first such comma past the target, found by indexOf.
// Native's parse of the batch is the check; two wrong guesses and the container is scanned. Arrays of long children
// are parsed child by child, from slices of the text (no copy). Parser methods (parser.js). Node 14 syntax.
const { ARRAY, OBJECT, QUOTE, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, WS, now, isWhitespace } = require('./syntax');
const { addPart, newSignature } = require('./frame');

// A container whose batches end at a guessed comma stops guessing after this many wrong guesses.
const MAX_GUESS_FAILURES = 2;
// A guessed batch is at most this many times as long as the container's last batch: a guess cannot see where the
// container ends, and one past it (at a comma of the text after) fails after parsing all of it. Bounded so, a small
// container that learnt a signature wastes little, and a large one still grows to full batches in a few.
const GUESS_GROWTH = 4;
const MAX_SIGNATURE_CHARS = 24;
// A container stops looking for a signature after this many scanned batches without one: the children differ (a wide
// object's values of several kinds, say), and each look reads the whole batch again.
const MAX_SIGNATURE_LOOKS = 3;
// A signature is learnt from a scanned batch of at least this many children.
const MIN_SIGNATURE_CHILDREN = 4;
// Arrays whose children are this long on average are parsed child by child, from slices of the text (no copy).
const ELEMENT_ALONE_CHARS = 1024;
// The start of an object up to its first key's colon, for a signature.
const FIRST_KEY = /\{[ \t\n\r]*"[^"\\]{0,16}"[ \t\n\r]*:/y;
// The start of a key up to its first digit, for an object's signature (keySignature): with its quote, a pattern of
// at most 6 characters.
const KEY_PREFIX_CHARS = 5;
const KEY_PREFIX = new RegExp(`[^"\\\\0-9]{0,${KEY_PREFIX_CHARS}}`, 'y');

const isCloser = (code) => code === CLOSE_BRACKET || code === CLOSE_BRACE;
const isOpener = (code) => code === OPEN_BRACKET || code === OPEN_BRACE;

const guessing = {
  /**
   * Ends the batch without scanning it: at the first comma past the target that looks like the commas between the
   * frame's children seen so far. Native's parse of the batch is the check (a comma inside a string or a nested
   * value leaves an unfinished value, which it rejects). Arrays of large children are parsed child by child, from
   * slices of the text, which saves copying them into a batch. Returns false when the batch must be scanned.
   */
  guess(frame, start, target, limit, started) {
    const chainAt = frame.chain !== null ? frame.chain.at[frame.chainAt] : -1;
    if (frame.kind === ARRAY && frame.elementChars >= ELEMENT_ALONE_CHARS) return this.elementBatch(frame, start, target, limit, started, chainAt);
    const end = this.nextComma(frame.signature, target, limit);
    if (end < 0 || (chainAt >= start && chainAt < end)) return false;
    if (this.checksCloses(frame, start, end)) {
      // A nested container may end before the guessed comma, which is then one of the text after it (a sibling's
      // with the same text around it): native would read the whole batch, reject it, and it would be parsed again
      // smaller. The brackets, counted, show the container's close first, and the batch ends there.
      const close = this.closeIn(frame, start, end);
      if (close >= 0) {
        this.endBatch(frame, start, close, true);
        return true;
      }
    }
    this.sliceChars += end - start; // parsed, or wasted on a wrong guess
    try {
      this.flush(frame, start, end, false);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      this.guessFailed(frame);
      return true;
    }
    this.learn(frame, now() - started, end - start);
    frame.pos = end + 1;
    frame.needValue = true;
    return true;
  },

  elementBatch(frame, start, target, limit, started, chainAt) {
    const text = this.text;
    let at = start;
    let count = 0;
    let failed = false;
    const values = [];
    while (at < target) {
      const end = this.nextComma(frame.signature, at, limit);
      if (end < 0 || (chainAt >= at && chainAt < end)) break;
      this.sliceChars += end - at; // parsed, or wasted on a wrong guess
      let value;
      try {
        value = this.native(text.slice(at, end), at, at, end);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        failed = true;
        break;
      }
      values.push(value);
      count++;
      at = end + 1;
    }
    if (count > 0) {
      addPart(frame, values);
      this.learn(frame, now() - started, at - start);
      frame.elementChars = (at - start) / count;
      frame.lastBatch = at - start;
      frame.pos = at;
      frame.needValue = true;
    }
    if (failed) this.guessFailed(frame);
    return count > 0 || failed;
  },

  guessFailed(frame) {
    frame.failures++;
    if (frame.failures >= MAX_GUESS_FAILURES) frame.signature = null;
    frame.exactNext = true;
    this.breakSlice = true; // the wasted parse took part of the slice: scan in the next one
  },

  /**
   * The signature of the comma that ended a scanned batch, if it is a safe guide: in the batch just parsed, it must
   * appear at every comma between two children and nowhere else (a guess at a false one costs a wasted parse). An
   * object whose values differ in kind has no such text; its keys may still share a start (`key_` in `key_1`,
   * `key_2`, ...): keySignature() tries that.
   */
  learnSignature(frame, start, end) {
    if (this.children < MIN_SIGNATURE_CHILDREN) return null;
    if (frame.signatureLooks < MAX_SIGNATURE_LOOKS) {
      const signature = this.signatureAt(frame, end, false);
      if (this.countCommas(signature, start, end) === this.children - 1) return signature;
      // Children that are arrays of arrays (the world atlas' arcs, [[x,y],[dx,dy],...]) have `],[` between their own
      // children too; the brackets their ends and starts have in a row (`]],[[`) tell their commas apart. Arrays only:
      // in an object of objects (`}},"`), the guesses it allowed were each checked for the object's close (closeIn()),
      // a second read of the batch that cost more than the scans they saved.
      const nested = frame.kind === ARRAY ? this.signatureAt(frame, end, true) : null;
      if (nested !== null && this.countCommas(nested, start, end) === this.children - 1) return nested;
    }
    return frame.kind === OBJECT ? this.keySignature(frame, start, end) : null;
  },

  /** How many commas with the signature around them lie in text[start, end), counting up to this.children. */
  countCommas(signature, start, end) {
    let count = 0;
    for (let at = start; count < this.children;) {
      const comma = this.nextComma(signature, at, end - 1);
      if (comma < 0) break;
      count++;
      at = comma + 1;
    }
    return count;
  },

  /**
   * A comma followed by the start of a key, up to its first digit (at most KEY_PREFIX_CHARS; none when the key starts
   * with one), as a signature of the object's commas, if in the batch just merged it appears once for each of the
   * batch's keys with that start but the first, and nowhere else. The start is that of the batch's last key in
   * Object.keys' order, which lists array indices first: a named key's, when the batch has one. Guesses then end at
   * such commas only, skipping keys of other starts (integer-like keys, say), whatever kinds of values lie between.
   */
  keySignature(frame, start, end) {
    const text = this.text;
    WS.lastIndex = end + 1;
    WS.test(text);
    const quote = WS.lastIndex;
    const last = this.batchKeys[this.batchKeys.length - 1];
    KEY_PREFIX.lastIndex = 0;
    KEY_PREFIX.test(last);
    const prefix = last.slice(0, KEY_PREFIX.lastIndex);
    if (text.charCodeAt(quote) !== QUOTE || prefix === frame.failedPrefix) return null;
    frame.failedPrefix = prefix; // a start that fails here is not tried again on the batches after
    const search = `"${prefix}`;
    let keys = 0;
    for (const key of this.batchKeys) if (key.startsWith(prefix)) keys++;
    WS.lastIndex = start;
    WS.test(text);
    if (text.startsWith(search, WS.lastIndex)) keys--; // the batch's first key has no comma before it in the batch
    if (keys < MIN_SIGNATURE_CHILDREN - 1) return null;
    const signature = newSignature(text.slice(end, quote) + search, search, quote - end, 0);
    return this.countCommas(signature, start, end) === keys ? signature : null;
  },

  /**
   * The text around the comma at `comma`, between two children of frame: the end of the child before (a closing
   * bracket or quote), whitespace, and the start of the next one up to its first key. Searched for with indexOf on
   * a pattern of at most 6 characters (longer ones take V8 a table per call), starting at its rarest character.
   * nested: with every closing bracket that ends the child before and every opening one that starts the next (null
   * when that adds none to the plain signature).
   */
  signatureAt(frame, comma, nested) {
    const text = this.text;
    let begin = comma;
    while (begin > 0 && isWhitespace(text.charCodeAt(begin - 1))) begin--;
    const before = text.charCodeAt(begin - 1);
    if (before === CLOSE_BRACE || before === CLOSE_BRACKET || before === QUOTE) begin--;
    else begin = comma;
    WS.lastIndex = comma + 1;
    WS.test(text);
    const first = WS.lastIndex;
    let end = first;
    const code = text.charCodeAt(first);
    if (code === OPEN_BRACE && frame.kind === ARRAY) {
      FIRST_KEY.lastIndex = first;
      end = FIRST_KEY.test(text) ? FIRST_KEY.lastIndex : first + 1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET || code === QUOTE) {
      end = first + 1;
    }
    if (nested) {
      const plainBegin = begin;
      const plainEnd = end;
      if (before === CLOSE_BRACE || before === CLOSE_BRACKET) while (begin > 0 && isCloser(text.charCodeAt(begin - 1))) begin--;
      if (code === OPEN_BRACKET) while (end < this.length && isOpener(text.charCodeAt(end))) end++;
      if (begin === plainBegin && end === plainEnd) return null;
    }
    end = Math.min(end, begin + MAX_SIGNATURE_CHARS);
    // The indexOf pattern starts at the next child's first character when it has one (rarer than a comma).
    const searchFrom = end > first ? first : comma;
    return newSignature(text.slice(begin, end), text.slice(searchFrom, Math.min(end, searchFrom + 6)), searchFrom - begin, comma - begin);
  },

  /** The first comma at or past `from` (and before `limit`) with the signature around it, or -1. */
  nextComma(signature, from, limit) {
    const begin = Math.max(0, from - signature.commaOffset);
    const end = Math.min(this.length, limit + signature.text.length);
    if (end - begin < signature.text.length) return -1;
    // Searched in a slice that ends at the limit (indexOf must not run through the rest of the text), kept for the
    // searches of one batch.
    if (this.region === null || begin < this.regionStart || end !== this.regionEnd) {
      this.regionStart = begin;
      this.regionEnd = end;
      this.region = this.text.slice(begin, end);
    }
    const region = this.region;
    const offset = this.regionStart;
    let at = begin - offset + signature.searchOffset;
    for (;;) {
      const found = region.indexOf(signature.search, at);
      if (found < 0) return -1;
      const candidate = found - signature.searchOffset;
      const comma = offset + candidate + signature.commaOffset;
      if (comma > limit) return -1;
      if (comma >= from && region.startsWith(signature.text, candidate)) return comma;
      at = found + 1;
    }
  },
};

module.exports = { guessing, GUESS_GROWTH, MAX_GUESS_FAILURES, MAX_SIGNATURE_LOOKS };
