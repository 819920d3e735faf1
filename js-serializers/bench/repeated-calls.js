'use strict';
// How many calls one timing of a small document makes, for both shape benchmarks (bench/shapes-quick.js and
// bench/shape-run.js, the full benchmark's child). A single call of 20-100 us, right after a collection or a few
// milliseconds' wait with the benchmark's timers armed, timed mostly what the pause left cold (the first allocation of
// each kind, code and caches: a minimal async wrapper of JSON.stringify paid 10 us of it), at 1-3x native for the same
// code, and native's own time moved up to 2x from one process to the next; a service meets its small documents warm,
// one after another, as a run of repeated calls does. Node 14 syntax.
const { SMALL_BYTES } = require('./family-summary');

// A run of calls lasts about this long in native's time.
const REPEAT_MS = 2;
// At most this many calls a timing: the fewest that still make a document of a few microseconds last REPEAT_MS.
const MAX_REPEATS = 200;

/**
 * The calls one timing of a document of `bytes` makes, native taking nativeMs a call: one for a document of
 * SMALL_BYTES and more (its call is long enough to time alone); for a smaller one, enough that native's share lasts
 * about REPEAT_MS, at most MAX_REPEATS.
 */
function repeatsFor(bytes, nativeMs) {
  if (bytes >= SMALL_BYTES) return 1;
  return Math.max(1, Math.min(MAX_REPEATS, Math.ceil(REPEAT_MS / Math.max(nativeMs, 0.001))));
}

module.exports = { repeatsFor, REPEAT_MS };
