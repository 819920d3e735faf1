'use strict';
// The collector's pauses on this thread, kept so that a run's longest block can say how much of it was the collector
// (event-loop.js): on a 20 MB document the pauses alone reach 10-30 ms, and a block that holds one is not the
// approach's slicing at fault, nor moved by its knobs (docs/findings/js-serializers.md, 2026-11-29). perf_hooks
// reports each pause with its start and duration a turn or two after it ended (settled() waits for that). The newest
// MAX_PAUSES are kept. Node 14 syntax.
const { PerformanceObserver } = require('perf_hooks');

// About a minute and a half of the busiest runs seen (yieldable-json parsing 21 MB: ~90 pauses a second).
const MAX_PAUSES = 8192;
// perf_hooks hands a pause to observers from an immediate, which Node 24 queues once more: this many turns.
const DELIVERY_TURNS = 2;

/** How much of a pause from start to end (performance.now() ms) fell inside window {from, to}; 0 when none. */
function pauseOverlapMs(start, end, window) {
  return Math.max(0, Math.min(window.to, end) - Math.max(window.from, start));
}

/** The newest `capacity` pauses, as [start, end) pairs in performance.now() ms. */
class PauseRing {
  constructor(capacity) {
    this.starts = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
    this.count = 0; // every pause added, the overwritten ones too
  }

  add(start, end) {
    const at = this.count % this.starts.length;
    this.starts[at] = start;
    this.ends[at] = end;
    this.count++;
  }

  /**
   * The pauses' time inside window {from, to}, summed; null when some were dropped and the oldest kept began after
   * the window's start (its pauses are no longer all known).
   */
  msWithin(window) {
    const capacity = this.starts.length;
    // Once full, the oldest entry is the one the next pause overwrites.
    if (this.count > capacity && this.starts[this.count % capacity] > window.from) return null;
    let ms = 0;
    for (let i = 0; i < Math.min(this.count, capacity); i++) ms += pauseOverlapMs(this.starts[i], this.ends[i], window);
    return ms;
  }

  /**
   * The longest block a thread's own work made outside the pauses, over gaps (timer-gap.js' OwnGaps: each gap's own
   * part, its length less its wait): each gap's own part, or its length less the pauses inside it if that is less.
   * Where the thread also waited for a CPU during a pause the two overlap by an unknown amount, so this errs long,
   * never short. The gaps not kept one by one count whole. null when pauses of the first kept gap's time were dropped.
   */
  longestLessPauses(gaps) {
    const capacity = this.starts.length;
    const kept = Math.min(this.count, capacity);
    const oldest = this.count > capacity ? this.count % capacity : 0;
    if (gaps.from.length > 0 && this.count > capacity && this.starts[oldest] > gaps.from[0]) return null;
    let longest = gaps.unkeptMs;
    // Both in time order: the pauses from the oldest kept, the gaps as they came; a pause may span two gaps.
    let first = 0;
    for (let g = 0; g < gaps.from.length; g++) {
      const window = { from: gaps.from[g], to: gaps.to[g] };
      while (first < kept && this.ends[(oldest + first) % capacity] <= window.from) first++;
      let paused = 0;
      for (let p = first; p < kept && this.starts[(oldest + p) % capacity] < window.to; p++) {
        const i = (oldest + p) % capacity;
        paused += pauseOverlapMs(this.starts[i], this.ends[i], window);
      }
      longest = Math.max(longest, Math.min(gaps.ownMs[g], window.to - window.from - paused));
    }
    return longest;
  }
}

let ring = null;

/** Starts keeping this thread's pauses, once (a watch calls it when it starts: a pause before is of no run). */
function watchCollector() {
  if (ring !== null) return;
  ring = new PauseRing(MAX_PAUSES);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) ring.add(entry.startTime, entry.startTime + entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Resolves once the pauses that ended before the call have been reported. */
async function settled() {
  for (let i = 0; i < DELIVERY_TURNS; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The collector's pause time inside window {from, to} (performance.now() ms): PauseRing's msWithin of this thread's. */
function collectorMsWithin(window) {
  watchCollector();
  return ring.msWithin(window);
}

/** PauseRing's longestLessPauses of this thread's pauses. */
function longestOwnLessPauses(gaps) {
  watchCollector();
  return ring.longestLessPauses(gaps);
}

module.exports = { watchCollector, settled, collectorMsWithin, longestOwnLessPauses, pauseOverlapMs, PauseRing, MAX_PAUSES };
