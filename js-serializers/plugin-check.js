'use strict';
// The start-up check of a serializer plugin: one workload's conformance corpus (conformance/conformance.js) run on it
// in a worker thread (plugin-check-worker.js), bounded in time as a whole. The service's event loop only receives
// messages meanwhile, so it answers /healthz and runs as before. Node 14 syntax.
const path = require('path');
const { Worker } = require('worker_threads');

const WORKER = path.join(__dirname, 'plugin-check-worker.js');

/**
 * Checks workload of the plugin at source. onCase({index, case, of}) hears of each case as it starts.
 * Resolves to {state: 'ok', cases} or {state: 'failing', case, why} (case: the first differing case, null where the
 * check failed before any); never rejects. A check still running after timeoutMs is ended and failing.
 * Returns {verdict: Promise, stop()}: stop() ends the worker (the service is closing) and the verdict then says so.
 */
function checkPlugin(source, workload, { timeoutMs, onCase }) {
  const worker = new Worker(WORKER, { workerData: { source, workload } });
  worker.unref(); // a check never keeps a closing process alive
  let current = null;
  let settle;
  const verdict = new Promise((resolve) => {
    settle = resolve;
  });
  let settled = false;
  const finish = (result) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    worker.terminate();
    settle(result);
  };
  const failing = (why) => finish({ state: 'failing', case: current, why });
  const timer = setTimeout(() => failing(`the check did not finish within ${timeoutMs} ms`), timeoutMs);
  worker.on('message', (message) => {
    if (message.case !== undefined && message.index !== undefined) {
      current = message.case;
      if (onCase) onCase(message);
    } else if (message.passed !== undefined) {
      finish({ state: 'ok', cases: message.passed });
    } else if (message.departure) {
      finish({ state: 'failing', case: message.departure.case, why: message.departure.why });
    } else if (message.error) {
      failing(`the check failed: ${message.error}`);
    }
  });
  // A plugin can throw where no caller catches it (inside its own setImmediate): that ends the worker.
  worker.on('error', (error) => failing(`crashed the check: uncaught ${error.name}: ${String(error.message).slice(0, 200)}`));
  worker.on('exit', (code) => failing(`the check's thread exited (code ${code}) before a verdict`));
  return { verdict, stop: () => failing('the service closed before the check finished') };
}

module.exports = { checkPlugin };
