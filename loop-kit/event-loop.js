'use strict';
// The event loop as a run sees it: how to give it a turn, and how long it was kept waiting. Node 14 syntax.
const { monitorEventLoopDelay, performance } = require('perf_hooks');
const { startGapWindowMonitor } = require('./timer-gap');
const { threadClock } = require('@lab/node-agent/thread-clock');
const { round } = require('./round');
const { watchCollector, settled, collectorMsWithin, longestOwnLessPauses } = require('./collector-pauses');

// Where stop()'s figures keep the blocks' windows for withCollector(), out of their JSON.
const WINDOWS = Symbol('block windows');

/** Resolves after one turn of the event loop (timers and I/O run first), unlike a resolved promise. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Starts watching the event loop for one run: a 1 ms-resolution delay histogram and the largest gap between 1 ms
 * timers. The gap catches the block a run ends with (a synchronous native call), which the histogram only records
 * at its next tick. stop() -> {maxBlockMs, p99Ms, maxBlockAt, maxBlockCpuMs, maxBlockWaitMs, maxOwnBlockMs}: the
 * longest block seen, the p99 of the histogram's samples (null when the run was too short to take one), when the
 * timer's longest gap was ({fromMs, toMs}, wall-clock ms: a CPU profile's samples between them are what blocked),
 * how that gap was spent (on a CPU, waiting for one: @lab/node-agent/thread-clock) and the longest block the thread's own work made
 * (a gap less its wait, over every gap): the part of a block a busy machine cannot cause. The three are null where
 * the thread's clock cannot be read, or with attribute false (what it costs is measured that way).
 * Calling stop() again returns the same. Blocks by concurrent work in the process count too: that is what
 * the process's clients felt during the run. withCollector(figures) adds how much of the two blocks was the
 * collector's pauses, once they have been reported.
 */
function startLoopWatch({ attribute = true } = {}) {
  watchCollector();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const stopGap = startGapWindowMonitor({ clock: attribute ? threadClock() : null });
  let figures = null;
  return function stop() {
    if (figures !== null) return figures; // stopping twice is harmless: the first figures stand
    const gap = stopGap();
    histogram.disable();
    const sampled = histogram.max > 0;
    const histogramMs = sampled ? histogram.max / 1e6 : 0;
    const wall = (at) => round(performance.timeOrigin + at);
    const attributed = typeof gap.ownMs === 'number';
    figures = {
      maxBlockMs: round(Math.max(gap.ms, histogramMs)),
      p99Ms: sampled ? round(histogram.percentile(99) / 1e6) : null,
      // The 1 ms timer's longest gap, also when the histogram saw a longer delay (it does not say when): a block
      // that long or nearly, at a known time.
      maxBlockAt: { fromMs: wall(gap.from), toMs: wall(gap.to) },
      maxBlockCpuMs: attributed ? round(gap.cpuMs) : null,
      maxBlockWaitMs: attributed ? round(gap.waitMs) : null,
      maxOwnBlockMs: attributed ? round(gap.ownMs) : null,
    };
    Object.defineProperty(figures, WINDOWS, { value: { block: { from: gap.from, to: gap.to }, own: attributed ? { from: gap.ownFrom, to: gap.ownTo } : null, ownGaps: attributed ? gap.ownGaps : null } });
    return figures;
  };
}

/**
 * A watch's figures (stop()'s) with, once the collector's pauses until now have been reported (a few turns), how much
 * of each block they were: maxBlockGcMs inside the longest block, maxOwnBlockGcMs inside the block maxOwnBlockMs
 * measures; and maxOwnBlockLessGcMs, the longest block the run's own work made outside the pauses, over every gap
 * (collector-pauses.js' longestLessPauses: it errs long, never short). null where the thread's clock cannot be read,
 * or the pauses of the time are no longer kept. A pause is V8's, in one piece: no slicing of the run's own can split
 * it, and no knob of the approach's moves it.
 */
async function withCollector(figures) {
  await settled();
  const windows = figures[WINDOWS];
  const part = (window) => {
    const ms = window === null ? null : collectorMsWithin(window);
    return ms === null ? null : round(ms);
  };
  const own = part(windows.own);
  const lessPauses = windows.ownGaps === null ? null : longestOwnLessPauses(windows.ownGaps);
  return Object.assign({}, figures, {
    maxBlockGcMs: part(windows.block),
    // A pause the thread also waited for a CPU in counts in its gap, not in the gap less its wait: at most that.
    maxOwnBlockGcMs: own === null ? null : Math.min(own, figures.maxOwnBlockMs),
    maxOwnBlockLessGcMs: lessPauses === null ? null : round(lessPauses),
  });
}

module.exports = { nextTurn, startLoopWatch, withCollector };
