'use strict';
// What a client of a busy process feels: a 1 ms interval timer, and the longest wait between its ticks. Shared by the
// serializers' tests and benchmarks (and meant for the services' per-run eventLoop figures). Node 14 syntax.
const { performance } = require('perf_hooks');

/**
 * Starts the timer; the returned stop() clears it and returns the longest gap, the one still open included, as
 * {ms, from, to} (performance.now() times of the ticks around it), so that what ran inside it can be looked up.
 */
function startGapWindowMonitor() {
  let last = performance.now();
  let longest = { ms: 0, from: last, to: last };
  const timer = setInterval(() => {
    const at = performance.now();
    if (at - last > longest.ms) longest = { ms: at - last, from: last, to: at };
    last = at;
  }, 1);
  return function stop() {
    clearInterval(timer);
    const at = performance.now();
    return at - last > longest.ms ? { ms: at - last, from: last, to: at } : longest;
  };
}

/** Starts the timer; the returned stop() clears it and returns the longest gap in ms, the one still open included. */
function startGapMonitor() {
  const stop = startGapWindowMonitor();
  return () => stop().ms;
}

module.exports = { startGapMonitor, startGapWindowMonitor };
