'use strict';
// A string too long for one batch, decoded in pieces, each parsed natively (fast-parse.md): a plain piece (no quote
// or backslash, which indexOf finds) cut anywhere, a piece with escapes cut before an escape, each kind sized by its
// own rate; native's parse checks a piece's characters and copies them in one pass. The pieces are joined at the end,
// in a slice of their own when long, or left as a V8 cons string past MAX_JOIN_CHARS. Parser methods (parser.js).
// Node 14 syntax.
const { QUOTE, BACKSLASH, now } = require('./syntax');
const { PROBE_FRACTION, JOIN_ALONE_CHARS } = require('./sizes');

// A piece is at least this many characters (and at most sizes.js' MAX_BATCH_CHARS).
const MIN_PIECE_CHARS = 4096;
// Past this many characters, a long string's pieces are left concatenated (a V8 cons string), since one flat copy
// would outlast a slice (about 1 ms per MB written, most of it page faults on the new memory).
const MAX_JOIN_CHARS = 1 << 22;

const stringPieces = {
  /**
   * Decodes the next piece of a long string, natively: a plain piece (no escape) cut anywhere, or a piece with
   * escapes cut before one. Each kind of piece is sized by its own rate, which differ by 5x: sized by the plain
   * pieces', a piece of escapes would overrun its slice.
   */
  stringStep(frame, deadline) {
    const text = this.text;
    if (frame.end >= 0) {
      // The join is a copy of the whole string that cannot be split: a slice of its own (step saw to that).
      this.sliceChars += frame.chars;
      this.finish(frame, frame.parts.join(''), frame.end);
      return;
    }
    if (frame.parts === null) frame.parts = [];
    const started = now();
    const start = frame.pos;
    let cut = frame.failedCut;
    if (cut < 0) {
      const budget = Math.max(deadline - started, 0);
      // A piece grows to at most twice the last one: the rate of the first small pieces can be far off.
      const pieceChars = (rate) => Math.max(MIN_PIECE_CHARS, Math.min(Math.floor((budget * (rate.measured ? 1 : PROBE_FRACTION)) / rate.msPerChar), 2 * Math.max(frame.lastPiece, MIN_PIECE_CHARS), this.batchCharsLeft()));
      const slice = text.slice(start, Math.min(this.length, start + pieceChars(frame.plainRate)));
      const run = plainRun(slice);
      if (slice.charCodeAt(run) === QUOTE) {
        // The closing quote, with no escape before it: the last piece.
        this.sliceChars += run;
        this.endString(frame, this.native(`"${slice.slice(0, run)}"`, start - 1, start, start + run), start + run + 1);
        return;
      }
      if ((run === slice.length && start + run < this.length) || run >= MIN_PIECE_CHARS) {
        // No escape up to the cut, or up to an escape worth stopping before: a plain piece, cut anywhere.
        this.sliceChars += run;
        this.addPiece(frame, this.native(`"${slice.slice(0, run)}"`, start - 1, start, start + run), run);
        frame.pos = start + run;
        frame.plainRate.add(now() - started, run);
        return;
      }
      cut = run === slice.length ? this.length : this.escapeBoundary(start, Math.min(this.length, start + pieceChars(frame.parseRate)));
      if (cut < this.length) {
        this.sliceChars += cut - start;
        // Guess that the string goes on past the cut: if the piece parses, it holds no closing quote, so it does.
        try {
          this.addPiece(frame, this.native(`"${text.slice(start, cut)}"`, start - 1, start, cut), cut - start);
          frame.pos = cut;
        } catch (error) {
          // The string ends before the cut (or the piece is invalid): find out in a slice of its own.
          if (!(error instanceof SyntaxError)) throw error;
          frame.failedCut = cut;
          frame.failure = error;
          this.breakSlice = true;
        }
        // Strings decode at their own rate: learnt by the frame only.
        frame.parseRate.add(now() - started, cut - start);
        return;
      }
    }
    const end = this.skipString(start - 1, Math.min(this.length, cut + 1));
    if (end < 0) throw frame.failure;
    this.sliceChars += end - start;
    this.endString(frame, this.native(`"${text.slice(start, end - 1)}"`, start - 1, start, end), end);
  },

  addPiece(frame, piece, textChars) {
    frame.parts.push(piece);
    frame.chars += piece.length;
    frame.lastPiece = textChars;
  },

  /** The piece the string ends with, before the quote at end - 1: the string is joined now, or in a slice of its own. */
  endString(frame, piece, end) {
    frame.parts.push(piece);
    frame.chars += piece.length;
    frame.end = end;
    if (frame.parts.length === 1) this.finish(frame, piece, end);
    else if (frame.chars > Math.min(MAX_JOIN_CHARS, this.maxSliceChars)) this.finish(frame, frame.parts.reduce(concatenateStrings), end);
    else if (frame.chars > JOIN_ALONE_CHARS) this.breakSlice = true;
    else this.finish(frame, frame.parts.join(''), end);
  },

  /** Moves a cut back before an escape it would split (valid text from `start`; if not, the piece's parse fails). */
  escapeBoundary(start, cut) {
    const text = this.text;
    for (let j = cut - 1; j >= cut - 5 && j > start; j--) { // cut - start >= MIN_PIECE_CHARS: j never reaches start
      if (text.charCodeAt(j) !== BACKSLASH) continue;
      let run = 1;
      while (j - run >= start && text.charCodeAt(j - run) === BACKSLASH) run++;
      if (run % 2 === 0) return cut; // j is an escaped backslash: the escape before it ended at j
      const escapeEnd = j + (text.charCodeAt(j + 1) === 0x75 ? 6 : 2);
      return escapeEnd > cut ? j : cut;
    }
    return cut;
  },
};

const concatenateStrings = (a, b) => a + b;

/** The characters of slice before its first quote or backslash (all of them if none): indexOf's search is vectorized. */
function plainRun(slice) {
  const quote = slice.indexOf('"');
  const backslash = slice.indexOf('\\');
  if (quote < 0) return backslash < 0 ? slice.length : backslash;
  return backslash < 0 ? quote : Math.min(quote, backslash);
}

module.exports = { stringPieces };
