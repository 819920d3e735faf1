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

class DocumentRate {
  constructor(prior) {
    this.msPerChar = prior;
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
    this.msPerChar = msPerChar;
  }
}

module.exports = { DocumentRate, MIN_LEARN_CHARS };
