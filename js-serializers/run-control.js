'use strict';
// The deadline and the interruption of one run. The run's signal aborts when its timeout passes or its client goes
// away; finish() says whether the approach was stopped early and how far past the deadline it stopped, which is
// the figure that tells an approach that can be interrupted from one that cannot. Node 14 syntax.
const { performance } = require('perf_hooks');
const { createAbortController, AbortError } = require('../node-kit/abort');

/**
 * timeoutMs: 0 for none. clientSignal: aborted when the client is gone (optional).
 * Returns {signal, finish(error?) -> {ms, interrupted, interruptedBy, overshootMs}}: call finish once the approach
 * settled, with its error if it threw. An error thrown after the signal aborted is the interruption; any other error
 * is rethrown, a real failure of the approach.
 */
function startRunControl({ timeoutMs, clientSignal }) {
  const controller = createAbortController();
  const startedAt = performance.now();
  const deadline = timeoutMs > 0 ? startedAt + timeoutMs : null;
  let interruptedBy = null;
  const interrupt = (by, message) => {
    if (controller.signal.aborted) return;
    interruptedBy = by;
    controller.abort(new AbortError(message));
  };
  const timer = deadline === null ? null : setTimeout(() => interrupt('timeout', `timeout of ${timeoutMs} ms passed`), timeoutMs);
  const onClientGone = () => interrupt('client', 'the client went away');
  if (clientSignal) {
    if (clientSignal.aborted) onClientGone();
    else clientSignal.addEventListener('abort', onClientGone);
  }
  return {
    signal: controller.signal,
    finish(error) {
      const stoppedAt = performance.now();
      if (timer !== null) clearTimeout(timer);
      if (clientSignal) clientSignal.removeEventListener('abort', onClientGone);
      if (error !== undefined && !controller.signal.aborted) throw error;
      const interrupted = error !== undefined;
      return {
        ms: stoppedAt - startedAt,
        interrupted,
        interruptedBy: interrupted ? interruptedBy : null,
        overshootMs: deadline !== null && stoppedAt > deadline ? round(stoppedAt - deadline) : null,
      };
    },
  };
}

const round = (ms) => Math.round(ms * 1000) / 1000;

module.exports = { startRunControl };
