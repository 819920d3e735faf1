'use strict';
/**
 * A rate in ms per character, learnt as a running mean of measurements, by which fast-parse.js sizes its batches.
 * Runs shorter than MIN_LEARN_CHARS (where timer and call overheads dominate) are pooled until they add up to that
 * many: a rate learnt too high (a collector's pause inside one batch can make it a hundred times too high) sizes the
 * next batches below that, and they must still teach it, or every later batch stays a hundred times too short.
 * Node 14 syntax: fast-parse.js runs there too.
 */
const MIN_LEARN_CHARS = 2048;

class LearntRate {
  constructor(msPerChar) {
    this.msPerChar = msPerChar;
    this.measured = false; // msPerChar is a prior until then
    this.pendingMs = 0;
    this.pendingChars = 0;
  }

  add(ms, chars) {
    this.pendingMs += ms;
    this.pendingChars += chars;
    if (this.pendingChars < MIN_LEARN_CHARS) return;
    const rate = Math.max(this.pendingMs, 0.001) / this.pendingChars;
    this.pendingMs = 0;
    this.pendingChars = 0;
    this.msPerChar = this.measured ? (this.msPerChar + rate) / 2 : rate;
    this.measured = true;
  }

  /** The measurements so far are no guide: the next one replaces them. */
  forget() {
    this.measured = false;
    this.pendingMs = 0;
    this.pendingChars = 0;
  }
}

module.exports = { LearntRate, MIN_LEARN_CHARS };
