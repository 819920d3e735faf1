'use strict';
// The optimized route's worker pool (piscina): a fixed number of workers, a bounded queue and a deadline per task.
// Every way a task can fail becomes an HttpError the route answers with, and a worker that dies is replaced by
// piscina while the others keep serving.
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const Piscina = require('piscina');
const { HttpError, busy } = require('@lab/node-kit');
const { createAdmission, unitsOf } = require('./admission');

const WORKER_FILE = path.join(__dirname, 'worker.js');
const now = () => performance.timeOrigin + performance.now();

/**
 * {workers, maxQueue, taskTimeoutMs}. Returns {run(request, clientSignal) -> {result, waitMs, runMs, threadId},
 * queueSize, admitted, threads, size, workerHeaps(), close()}. run rejects with 503 (every worker busy and maxQueue
 * tasks waiting; the task is not expected to finish before taskTimeoutMs with the work queued ahead of it, judged by
 * admission.js; or no answer within taskTimeoutMs: a task still queued is dropped, a running one has its worker
 * stopped), 500 (the worker died) or, when the client left, 499 (nobody reads it). The rejection's `outcome` names the
 * case for the metrics.
 */
function createOffloadPool({ workers, maxQueue, taskTimeoutMs }) {
  // The queue is bounded here, not by piscina's maxQueue: piscina 5.3 puts a task that has an AbortSignal (every task
  // here: the deadline) on a side queue that maxQueue does not count, so its bound never applies.
  const piscina = new Piscina({ filename: WORKER_FILE, minThreads: workers, maxThreads: workers, idleTimeout: Infinity });
  const capacity = workers + maxQueue;
  let admitted = 0; // tasks queued or running
  // A worker that fails with no task in hand (piscina then emits 'error') is replaced like any other; the service
  // must not crash for it.
  piscina.on('error', (err) => console.error(`[offload] worker error outside a task: ${err.message}`));

  const admission = createAdmission({ workers, taskTimeoutMs });

  async function run(request, clientSignal) {
    if (admitted >= capacity) {
      const full = busy(`all ${workers} workers are busy and ${maxQueue} tasks are queued (OFFLOAD_MAX_QUEUE); retry later`, { maxQueue });
      full.outcome = 'queue-full';
      throw full;
    }
    const units = unitsOf(request);
    admission.admit(units); // throws the 503 for a task that would not finish in time
    admitted++;
    let runMs;
    try {
      const answer = await runAdmitted(request, clientSignal);
      runMs = answer.runMs;
      return answer;
    } finally {
      admitted--;
      admission.done(units, runMs);
    }
  }

  async function runAdmitted(request, clientSignal) {
    const deadline = AbortSignal.timeout(taskTimeoutMs);
    const signal = clientSignal ? AbortSignal.any([deadline, clientSignal]) : deadline;
    const submittedAt = now();
    let answer;
    try {
      answer = await piscina.run({ request }, { signal });
    } catch (err) {
      throw explain(err, { deadline, clientSignal, taskTimeoutMs });
    }
    return { result: answer.result, waitMs: Math.max(0, answer.startedAt - submittedAt), runMs: answer.runMs, threadId: answer.threadId };
  }

  return {
    run,
    size: workers,
    get queueSize() {
      return piscina.queueSize;
    },
    /** Tasks queued or running. */
    get admitted() {
      return admitted;
    },
    get threads() {
      return piscina.threads;
    },
    /** v8.getHeapStatistics() of every live worker; one stopped while asked is left out. */
    async workerHeaps() {
      const heaps = await Promise.all(piscina.threads.map((worker) => worker.getHeapStatistics().catch(() => null)));
      return heaps.filter(Boolean);
    },
    close: () => piscina.close({ force: true }),
  };
}

/** The HttpError (with an `outcome` for the metrics) for a task that did not complete. */
function explain(err, { deadline, clientSignal, taskTimeoutMs }) {
  let answer;
  if (clientSignal && clientSignal.aborted) {
    answer = new HttpError(499, 'the client went away');
    answer.outcome = 'client-gone';
  } else if (deadline.aborted) {
    answer = busy(`the task did not finish within ${taskTimeoutMs} ms (OFFLOAD_TASK_TIMEOUT_MS)`, { timeoutMs: taskTimeoutMs });
    answer.outcome = 'timeout';
  } else {
    answer = new Error(`the worker running the task failed: ${err.message}`);
    answer.outcome = 'failed';
  }
  return answer;
}

module.exports = { createOffloadPool };
