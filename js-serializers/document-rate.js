'use strict';
/**
 * The rate, in ms per character, at which fast-parse.js' native calls have read text in this process, by which a
 * parse decides that a text is read whole: one native call in the caller's turn, with no slice and no turn waited,
 * when at that rate it fits in one slice. A text that small gains nothing from slicing, and the turn the first slice
 * waits for, with the slice loop's setup, cost small documents 2-4x native.
 *
 * It learns from every parse: a whole one's measured time, a sliced one's time in its native calls, for the characters
 * they read (of a text long enough that the clock and a call's fixed cost do not dominate). A rate slower than the one known replaces it at once,
 * a faster one moves it half way: a document that parsed fast (long strings, 1 GB/s) must not talk one that parses
 * slowly (deep nesting, 20 MB/s) into a block of many slices. Node 14 syntax: fast-parse.js runs there too.
 */
// Whole parses shorter than this teach nothing: a few microseconds of fixed cost would read as a slow rate.
const MIN_LEARN_CHARS = 1 << 14;

class DocumentRate {
  constructor(prior) {
    this.msPerChar = prior;
    this.measured = false;
  }

  /** Whether native reads `chars` characters within `ms` at the rate known. */
  fits(chars, ms) {
    return chars * this.msPerChar <= ms;
  }

  /** Native calls that read `chars` characters took `ms` in all. */
  addWhole(ms, chars) {
    if (chars >= MIN_LEARN_CHARS) this.learn(Math.max(ms, 0.001) / chars);
  }

  learn(msPerChar) {
    const faster = this.measured && msPerChar < this.msPerChar;
    this.msPerChar = faster ? (this.msPerChar + msPerChar) / 2 : msPerChar;
    this.measured = true;
  }
}

module.exports = { DocumentRate, MIN_LEARN_CHARS };
