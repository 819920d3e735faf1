'use strict';
// What a client of a busy process feels: a 1 ms interval timer, and the longest wait between its ticks. Shared by the
// serializers' tests and benchmarks (and meant for the services' per-run eventLoop figures). Node 14 syntax.
const { performance } = require('perf_hooks');

/** Starts the timer; the returned stop() clears it and returns the longest gap in ms, the one still open included. */
function startGapMonitor() {
  let last = performance.now();
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const at = performance.now();
    maxGapMs = Math.max(maxGapMs, at - last);
    last = at;
  }, 1);
  return function stop() {
    clearInterval(timer);
    return Math.max(maxGapMs, performance.now() - last);
  };
}

module.exports = { startGapMonitor };
