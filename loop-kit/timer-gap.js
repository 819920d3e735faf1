'use strict';
// What a client of a busy process feels: a 1 ms interval timer, and the longest wait between its ticks. Shared by the
// serializers' tests and benchmarks (and meant for the services' per-run eventLoop figures). Node 14 syntax.
const { performance } = require('perf_hooks');

// A gap whose own part is shorter than this is not kept one by one: no account taken off it can matter to a block
// limit of whole milliseconds, and a run of seconds has thousands of 1 ms gaps.
const KEPT_GAP_MS = 2;
// The most gaps kept one by one (24 bytes each): a minute of 5 ms slices is 12 000.
const MAX_KEPT_GAPS = 1 << 16;

/**
 * Every gap's own part (its length less its wait), in time order: those of KEPT_GAP_MS or more one by one (from, to,
 * ownMs), up to MAX_KEPT_GAPS; of the others only the longest own part (unkeptMs), which bounds what each would give.
 */
class OwnGaps {
  constructor() {
    this.from = [];
    this.to = [];
    this.ownMs = [];
    this.unkeptMs = 0;
  }

  add(from, to, ownMs) {
    if (ownMs >= KEPT_GAP_MS && this.from.length < MAX_KEPT_GAPS) {
      this.from.push(from);
      this.to.push(to);
      this.ownMs.push(ownMs);
    } else {
      this.unkeptMs = Math.max(this.unkeptMs, ownMs);
    }
  }
}

/**
 * Starts the timer; the returned stop() clears it and returns the longest gap, the one still open included, as
 * {ms, from, to} (performance.now() times of the ticks around it), so that what ran inside it can be looked up.
 * With clock (@lab/node-agent/thread-clock's threadClock(), read at every tick), the gap also says how it was spent, cpuMs on a
 * CPU and waitMs waiting for one (the rest is sleep, or the kernel blocking the thread), and ownMs is the longest gap
 * less its wait over all the gaps: the longest block the thread's own work made, whoever else wanted the CPU, and
 * ownFrom and ownTo that gap's ticks; ownGaps (OwnGaps) keeps every gap's own part, so that another account of what
 * ran in them (the collector's pauses: event-loop.js) can be taken off each.
 */
function startGapWindowMonitor({ clock = null } = {}) {
  let last = performance.now();
  let lastTimes = clock ? clock.read() : null;
  let longest = { ms: 0, from: last, to: last, cpuMs: clock ? 0 : null, waitMs: clock ? 0 : null };
  let own = clock ? { ownMs: 0, ownFrom: last, ownTo: last } : {};
  const ownGaps = clock ? new OwnGaps() : null;
  const gapTo = (at) => {
    if (!clock) return { ms: at - last, from: last, to: at };
    const times = clock.read();
    // The kernel adds a running thread's CPU time at its scheduler ticks (1-4 ms here), so a gap's cpuMs may hold a
    // tick of the gap before: it is capped at the gap. Its wait is added when the thread gets a CPU back, before it
    // can read: exact.
    const waitMs = times.waitMs - lastTimes.waitMs;
    const gap = { ms: at - last, from: last, to: at, cpuMs: Math.min(times.runMs - lastTimes.runMs, at - last), waitMs };
    lastTimes = times;
    if (gap.ms - gap.waitMs > own.ownMs) own = { ownMs: gap.ms - gap.waitMs, ownFrom: last, ownTo: at };
    ownGaps.add(last, at, gap.ms - gap.waitMs);
    return gap;
  };
  const timer = setInterval(() => {
    const at = performance.now();
    const gap = gapTo(at);
    if (gap.ms > longest.ms) longest = gap;
    last = at;
  }, 1);
  return function stop() {
    clearInterval(timer);
    const open = gapTo(performance.now());
    return Object.assign(open.ms > longest.ms ? open : longest, own, clock ? { ownGaps } : {});
  };
}

/** Starts the timer; the returned stop() clears it and returns the longest gap in ms, the one still open included. */
function startGapMonitor() {
  const stop = startGapWindowMonitor();
  return () => stop().ms;
}

module.exports = { startGapMonitor, startGapWindowMonitor, OwnGaps, KEPT_GAP_MS };
