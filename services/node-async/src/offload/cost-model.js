'use strict';
// What a process-data task costs, learnt from the tasks that ran to the end: runMs ≈ overheadMs + units × msPerUnit.
// The two are learnt apart because a tiny task is all overhead: one with fibonacciN 0 (1 unit) ran ~10 µs, which,
// taken as a cost per unit, made the default body (13 million units, ~110 ms) look like 132 s; the route then refused
// it for good, since only tiny tasks were admitted and they kept the estimate where it was.

// A task teaches the cost per unit only when its units dwarf the per-task overhead. That overhead (a map over at most
// 100 items and two clock readings, in the worker) was 9-50 µs here, a few thousand units: both scale with the CPU,
// so the ratio holds on any machine, and at 100 000 units the overhead is a few per cent of the run. Smaller tasks
// teach the overhead instead.
const MIN_UNITS_TO_LEARN_PER_UNIT = 100000;
// One measurement raises an estimate by at most this factor, so a task that was descheduled or stalled (a GC, a
// neighbour on the core) cannot make the route refuse work it can do.
const MAX_RISE = 2;

/**
 * An estimate moved toward a new measurement: the first sets it; above it, halfway (at most ×MAX_RISE), so repeated
 * slower measurements (a loaded machine) are followed in a few tasks; below it, at once: work cannot run faster than
 * the machine allows, so a low measurement is the machine's speed (a cold JIT's first runs are the slow ones).
 */
function follow(estimate, measured) {
  if (estimate === null || measured <= estimate) return measured;
  return Math.min((estimate + measured) / 2, estimate * MAX_RISE);
}

function createCostModel() {
  let msPerUnit = null;
  let overheadMs = null;
  return {
    /** Milliseconds that `tasks` tasks of `units` units in all should run, or null while no large task has run. */
    ms(units, tasks = 1) {
      return msPerUnit === null ? null : tasks * (overheadMs || 0) + units * msPerUnit;
    },
    /** One task that ran to the end: its units and the milliseconds it ran. */
    learn(units, runMs) {
      if (units >= MIN_UNITS_TO_LEARN_PER_UNIT) msPerUnit = follow(msPerUnit, runMs / units);
      else overheadMs = follow(overheadMs, Math.max(0, runMs - units * (msPerUnit || 0)));
    },
    get msPerUnit() {
      return msPerUnit;
    },
    get overheadMs() {
      return overheadMs;
    },
  };
}

module.exports = { createCostModel, MIN_UNITS_TO_LEARN_PER_UNIT, MAX_RISE };
