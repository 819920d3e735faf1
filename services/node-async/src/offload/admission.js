'use strict';
// Which tasks the pool takes on: only those it can finish before their deadline. A task's cost is counted in work
// units, the calls the recursive Fibonacci makes (2·F(n+1) - 1 per item), and its time is learnt from the tasks that
// ran (cost-model.js). Without this, a burst of maximal requests queued up to OFFLOAD_MAX_QUEUE and most of them
// waited the whole OFFLOAD_TASK_TIMEOUT_MS for a 503 (242 of 300 in one try); now they hear it at once.
const { busy } = require('@lab/node-kit');
const { fibonacciIterative } = require('./process-data');
const { createCostModel } = require('./cost-model');

// An estimate that refuses is only corrected by a task that runs, so it must not be able to refuse for good: once
// PROBE_AFTER_REFUSALS tasks have been refused since the last probe, the next one refused while nothing is admitted
// (an idle pool, so the probe delays nobody) runs anyway. At worst the estimate was right and the probe times out;
// else its measurement corrects the estimate.
const PROBE_AFTER_REFUSALS = 8;

/** The work units of a checked process-data request: calls of the recursive Fibonacci, all items together. */
const unitsOf = (request) => request.items.length * (2 * fibonacciIterative(request.fibonacciN + 1) - 1);

/**
 * {workers, taskTimeoutMs} -> {estimate(units) -> {waitMs, runMs} | null (nothing learnt yet), admit(units) ->
 * {probe}, done(units, runMs?) (runMs when it ran to the end)}. Work admitted and not done is counted whole, running
 * or not, so the wait is overestimated rather than under.
 */
function createAdmission({ workers, taskTimeoutMs }) {
  const cost = createCostModel();
  let pendingUnits = 0;
  let pendingTasks = 0;
  let refusalsSinceProbe = 0;

  function estimate(units) {
    const runMs = cost.ms(units);
    if (runMs === null) return null;
    return { waitMs: cost.ms(pendingUnits, pendingTasks) / workers, runMs };
  }

  return {
    estimate,
    /**
     * Counts a task of `units` in, or throws the 503 (outcome "would-time-out") when it is not expected to finish
     * within taskTimeoutMs with the work admitted ahead of it. `probe`: admitted although the estimate refused it.
     */
    admit(units) {
      const expected = estimate(units);
      let probe = false;
      if (expected !== null && expected.waitMs + expected.runMs > taskTimeoutMs) {
        refusalsSinceProbe++;
        probe = pendingTasks === 0 && refusalsSinceProbe >= PROBE_AFTER_REFUSALS;
        if (!probe) throw wouldTimeOut(expected, taskTimeoutMs);
        refusalsSinceProbe = 0;
      }
      pendingUnits += units;
      pendingTasks++;
      return { probe };
    },
    done(units, runMs) {
      pendingUnits -= units;
      pendingTasks--;
      if (runMs !== undefined) cost.learn(units, runMs);
    },
    cost,
  };
}

/** The 503 for a task that would not finish in time: retry once the work queued ahead of it is expected done. */
function wouldTimeOut({ waitMs, runMs }, taskTimeoutMs) {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  const refusal = busy(
    `the task would not finish within ${taskTimeoutMs} ms (OFFLOAD_TASK_TIMEOUT_MS): about ${Math.round(waitMs)} ms of queued work and ${Math.round(runMs)} ms of its own; retry later`,
    { timeoutMs: taskTimeoutMs, estimatedWaitMs: Math.round(waitMs), estimatedRunMs: Math.round(runMs) },
    retryAfterSeconds,
  );
  refusal.outcome = 'would-time-out';
  return refusal;
}

module.exports = { createAdmission, unitsOf, PROBE_AFTER_REFUSALS };
