'use strict';
// One timed run of a piece of work, on a collected heap when --expose-gc allows (so one run's garbage is not the next
// one's time), with a 1 ms interval timer beside it that records the longest gap between its ticks: the event-loop
// block the work caused, measured the same way by every benchmark.
const { performance } = require('perf_hooks');
const { startGapMonitor } = require('@lab/loop-kit/timer-gap');

/** Runs work() (sync or async); resolves to {ms, maxGapMs, output}. */
async function timedRun(work) {
  if (typeof global.gc === 'function') global.gc();
  const stopMonitor = startGapMonitor();
  const started = performance.now();
  const output = await work();
  const ms = performance.now() - started;
  const maxGapMs = stopMonitor();
  return { ms, maxGapMs, output };
}

/**
 * timedRun of work(stats), as a benchmark keeps one run: {ms, maxGapMs} and whatever the work counted into stats
 * (yields, slices, native calls) beside them.
 */
async function timedFigures(work) {
  const stats = {};
  const { ms, maxGapMs } = await timedRun(() => work(stats));
  return Object.assign({ ms, maxGapMs }, stats);
}

module.exports = { timedRun, timedFigures };
