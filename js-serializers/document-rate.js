'use strict';
/**
 * The rate, in ms per character, at which fast-parse.js' native calls have read text in this process, by which a
 * parse decides that a text is read whole: one native call in the caller's turn, with no slice and no turn waited,
 * when at that rate it fits in one slice. A text that small gains nothing from slicing, and the turn the first slice
 * waits for, with the slice loop's setup, cost small documents 2-4x native.
 *
 * It learns from every parse: a whole one's measured time, a sliced one's time in its native calls, for the characters
 * they read (of a text long enough that the clock and a call's fixed cost do not dominate). The last such rate is the
 * one used: a service parses the same kinds of documents over and over, and when the kind changes, rates differ by up
 * to 10x (long strings at 1 GB/s, deep nesting at 20 MB/s), so that a mean would misjudge the texts of both kinds
 * for many parses; the last rate misjudges one text at most, the first of a kind, whose own parse teaches its rate.
 * (Keeping the slower of two rates longer, tried first, left 0.75 MB documents that native reads in 3 ms sliced for
 * several parses after a text of tiny arrays, whose native rate is 6x slower, with no gain: a mean moves to the fast
 * rate within a few parses of the fast kind all the same.) Node 14 syntax: fast-parse.js runs there too.
 */
// Whole parses shorter than this teach nothing: a few microseconds of fixed cost would read as a slow rate.
const MIN_LEARN_CHARS = 1 << 14;
// A text that fits the slice at the rate learnt is read whole when it fits even at the prior, the slowest rate
// there is (sizes.js' INITIAL_MS_PER_CHAR, 50 ns a character: deep nesting), whatever its kind; a longer one only when
// it is of the kind that taught the rate, as far as its tokens tell: native's time is about a string's characters
// copied (0.5-1.5 ns each here) plus a cost per token (a key, a value, a bracket: 10-30 ns), so that a text with no
// more tokens a character than the one the rate came from parses no slower a character. Measured on the families and
// the corpus: tokens a character 0.002-0.1 where long strings dominate (0.5-1.4 ns a character), 0.12-0.5 on
// documents of many small values (3.7-10 ns), 0.39 on the world atlas' numbers (26 ns). Without it, documents of long
// strings that native reads in 2-4 ms (2-4 MB) were sliced, and paid 2-3x native's time for nothing; and until
// 2026-11-27 only texts past 1 Mi characters were asked their kind: after 2 M characters of long strings, 0.93 M of
// small records were read whole in 4.7-5.6 ms in a 1 ms slice (up to 50 ms, at 50 ns a character, in a 5 ms one).
const ALIKE_TOKENS = 1.25; // how many more tokens a character than the teacher's text still count as its kind
// The tokens a character are counted on windows spread over the text, not on all of it: 8 windows of 64 characters
// up to 128 Ki characters, one more window every 16 Ki after that, 32 at most (2 Ki characters). Every text that
// teaches the rate is counted from KIND_CHARS on, so that the count stays a few percent of native's time: 0.6 us on
// 64 Ki characters of long strings, which native reads in 23 us (32 windows took 3.2 us there). A shorter teacher
// leaves the kind unknown, and a text that needs it is sliced until one of its kind teaches.
const KIND_CHARS = 1 << 16;
const MIN_TOKEN_WINDOWS = 8;
const MAX_TOKEN_WINDOWS = 32;
const CHARS_PER_TOKEN_WINDOW = 1 << 14;
const TOKEN_WINDOW_CHARS = 64;
// 1 for the characters counted as tokens: quotes, commas, colons, opening brackets and braces, and backslashes (an
// escape costs native as a token does). A table read costs less than the six comparisons (2.3 us against 3.3).
const IS_TOKEN = new Uint8Array(128);
for (const token of '",:[{\\') IS_TOKEN[token.charCodeAt(0)] = 1;

/** Tokens a character, on windows spread evenly over text (MIN_TOKEN_WINDOWS to MAX_TOKEN_WINDOWS by its length). */
function tokensPerChar(text) {
  const windows = Math.min(MAX_TOKEN_WINDOWS, Math.max(MIN_TOKEN_WINDOWS, Math.floor(text.length / CHARS_PER_TOKEN_WINDOW)));
  const stride = Math.max(TOKEN_WINDOW_CHARS, Math.floor(text.length / windows));
  let tokens = 0;
  let read = 0;
  for (let start = 0; start < text.length; start += stride) {
    const end = Math.min(text.length, start + TOKEN_WINDOW_CHARS);
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code < 128) tokens += IS_TOKEN[code];
    }
    read += end - start;
  }
  return read === 0 ? 0 : tokens / read;
}

class DocumentRate {
  constructor(prior) {
    this.prior = prior;
    this.msPerChar = prior;
    // Tokens a character of the text that taught msPerChar, when it was KIND_CHARS long or more (null otherwise).
    this.tokensPerChar = null;
  }

  /** Whether native reads `chars` characters within `ms` at the rate known. */
  fits(chars, ms) {
    return chars * this.msPerChar <= ms;
  }

  /**
   * Whether text is read whole: it fits within `ms` at the rate known and within the slice's characters, and it fits
   * `ms` at the prior too or is of the kind of the text that taught the rate (ALIKE_TOKENS).
   */
  readsWhole(text, maxSliceChars, ms) {
    const chars = text.length;
    if (chars > maxSliceChars || !this.fits(chars, ms)) return false;
    return chars * this.prior <= ms || (this.tokensPerChar !== null && tokensPerChar(text) <= this.tokensPerChar * ALIKE_TOKENS);
  }

  /** Native calls that read `chars` characters of text took `ms` in all. */
  addWhole(ms, chars, text) {
    if (chars < MIN_LEARN_CHARS) return;
    this.msPerChar = Math.max(ms, 0.001) / chars;
    this.tokensPerChar = text.length >= KIND_CHARS ? tokensPerChar(text) : null;
  }
}

module.exports = { DocumentRate, MIN_LEARN_CHARS };
