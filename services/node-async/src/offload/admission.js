'use strict';
// Which tasks the pool takes on: only those it can finish before their deadline. A task's cost is counted in work
// units, the calls the recursive Fibonacci makes (2·F(n+1) - 1 per item), and the milliseconds per unit are learnt
// from the tasks that ran. Without this, a burst of maximal requests queued up to OFFLOAD_MAX_QUEUE and most of them
// waited the whole OFFLOAD_TASK_TIMEOUT_MS for a 503 (242 of 300 in one try); now they hear it at once.
const { fibonacciIterative } = require('./process-data');

/** The work units of a checked process-data request: calls of the recursive Fibonacci, all items together. */
const unitsOf = (request) => request.items.length * (2 * fibonacciIterative(request.fibonacciN + 1) - 1);

/**
 * {workers, taskTimeoutMs} -> {estimate(units) -> {waitMs, runMs} | null (nothing learnt yet), admit(units),
 * done(units, runMs?) (runMs when it ran to the end)}. Work admitted and not done is counted whole, running or not,
 * so the wait is overestimated rather than under.
 */
function createAdmission({ workers, taskTimeoutMs }) {
  let msPerUnit = null;
  let pendingUnits = 0;
  return {
    estimate(units) {
      if (msPerUnit === null) return null;
      return { waitMs: (pendingUnits / workers) * msPerUnit, runMs: units * msPerUnit };
    },
    /** Whether a task of `units` is expected to finish before its deadline, with what is admitted ahead of it. */
    fits(units) {
      const estimate = this.estimate(units);
      return estimate === null || estimate.waitMs + estimate.runMs <= taskTimeoutMs;
    },
    admit(units) {
      pendingUnits += units;
    },
    done(units, runMs) {
      pendingUnits -= units;
      if (runMs === undefined || units === 0) return;
      const measured = runMs / units;
      msPerUnit = msPerUnit === null ? measured : (msPerUnit + measured) / 2;
    },
  };
}

module.exports = { createAdmission, unitsOf };
