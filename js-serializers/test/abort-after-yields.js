'use strict';
// Aborts a sliced run between two of its slices, at a point its stats define (not a clock), for the abort tests of
// fast-parse and fast-stringify: the run must then stop at its next slice boundary and do no more work.

/**
 * Watches stats on every turn of the event loop and aborts controller once stats.yields reaches `yields`. Resolves
 * a copy of the stats as they were when it aborted.
 */
function abortAfterYields(controller, stats, yields) {
  return new Promise((resolve) => {
    const watch = () => {
      if (stats.yields >= yields) {
        const seen = Object.assign({}, stats);
        controller.abort();
        resolve(seen);
      } else {
        setImmediate(watch);
      }
    };
    setImmediate(watch);
  });
}

module.exports = { abortAfterYields };
