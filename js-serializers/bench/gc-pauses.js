'use strict';
// The garbage collector's pauses of the main thread during a run (perf_hooks 'gc' entries), and how much of the
// run's longest block they were: a pause is a step V8 takes in one piece, which no slicing in JavaScript can split,
// so a block that is mostly a pause names V8's collector, not the serializer's slices. How often the collector
// pauses, and how long, follows from what the run allocates and keeps and from the young generation's size (the
// --max-semi-space-size the services start with). Node 14 syntax (the lint's rule for js-serializers/).
const { PerformanceObserver, performance, constants } = require('perf_hooks');
const { pauseOverlapMs } = require('@lab/loop-kit/collector-pauses');

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
// Node 14 has no minor mark-sweep.
if (constants.NODE_PERFORMANCE_GC_MINOR_MARK_SWEEP !== undefined) KINDS[constants.NODE_PERFORMANCE_GC_MINOR_MARK_SWEEP] = 'minor mark-sweep';

const kindOf = (entry) => KINDS[entry.detail ? entry.detail.kind : entry.kind] || 'other';

/** How much of the pause `entry` fell inside window {from, to} (performance.now() times), in ms; 0 when none. */
const overlapMs = (entry, window) => pauseOverlapMs(entry.startTime, entry.startTime + entry.duration, window);

/**
 * Starts recording pauses; stop(block, run) ends it and returns, for the pauses that began after the start:
 *   {pauses, longestMs, longestByKind, inBlockMs, inBlockKind, inRunMs}
 * where longestByKind maps a kind ('scavenge', 'mark-compact', ...) to its longest pause, block is {from, to}
 * (performance.now() times, loop-kit/timer-gap's startGapWindowMonitor; optional), inBlockMs the part of the pauses
 * that fell inside it and inBlockKind the kind that took most of that part (null when none); run is the timed run's
 * {from, to} (optional), and inRunMs the part of the pauses inside it: time the run's clock counted that V8 spent
 * collecting.
 */
function startGcPauses() {
  const entries = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const startedAt = performance.now();
  return function stop(block = { from: 0, to: 0 }, run = { from: 0, to: 0 }) {
    if (typeof observer.takeRecords === 'function') entries.push(...observer.takeRecords()); // Node 14 has none
    observer.disconnect();
    const pauses = entries.filter((e) => e.startTime >= startedAt);
    const inBlock = {};
    const longestByKind = {};
    let inBlockMs = 0;
    let inRunMs = 0;
    for (const e of pauses) {
      const kind = kindOf(e);
      longestByKind[kind] = Math.max(longestByKind[kind] || 0, e.duration);
      inRunMs += overlapMs(e, run);
      const ms = overlapMs(e, block);
      if (ms <= 0) continue;
      inBlockMs += ms;
      inBlock[kind] = (inBlock[kind] || 0) + ms;
    }
    const kinds = Object.keys(inBlock);
    return {
      pauses: pauses.length,
      longestMs: pauses.reduce((most, e) => Math.max(most, e.duration), 0),
      longestByKind,
      inBlockMs,
      inBlockKind: kinds.length === 0 ? null : kinds.reduce((a, b) => (inBlock[b] > inBlock[a] ? b : a)),
      inRunMs,
    };
  };
}

module.exports = { startGcPauses };
