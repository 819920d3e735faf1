'use strict';
// What a concurrent periodic task feels while a run holds the event loop: a task due every PERIOD_MS from the start,
// and how late each of its ticks ran against that schedule. A tick that could not run on time runs at the next turn
// the loop gives, together with every other tick that fell due meanwhile, and each of them counts with its own
// lateness: a 50 ms block makes ticks 50, 49, ... 1 ms late, not a single late tick (what an interval timer that
// skips missed ticks would report, understating a block by the ticks it swallowed). Node 14 syntax.
const { performance } = require('perf_hooks');

const PERIOD_MS = 1;

/**
 * Starts the probe; stop() ends it and returns {ticks, p99Ms, maxMs}: how many ticks fell due, and the 99th
 * percentile and the maximum of their lateness (the ticks still pending at stop() count, late until then).
 * setTimeout's 1 ms granularity makes an idle loop's ticks up to about a millisecond late: that is the floor.
 */
function startLatenessProbe() {
  const startedAt = performance.now();
  const lateness = [];
  let due = startedAt + PERIOD_MS;
  let timer = null;
  const runDueTicks = (now) => {
    for (; due <= now; due += PERIOD_MS) lateness.push(now - due);
  };
  const tick = () => {
    const now = performance.now();
    runDueTicks(now);
    timer = setTimeout(tick, Math.max(0, due - performance.now()));
  };
  timer = setTimeout(tick, PERIOD_MS);
  return function stop() {
    clearTimeout(timer);
    runDueTicks(performance.now());
    if (lateness.length === 0) return { ticks: 0, p99Ms: 0, maxMs: 0 };
    const sorted = Float64Array.from(lateness).sort();
    return {
      ticks: sorted.length,
      p99Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)],
      maxMs: sorted[sorted.length - 1],
    };
  };
}

module.exports = { startLatenessProbe, PERIOD_MS };
