'use strict';
// The deadline and the interruption of one run. The run's signal aborts when its timeout passes or its client goes
// away; finish() says whether the approach was stopped early and how far past the deadline it stopped, which is
// the figure that tells an approach that can be interrupted from one that cannot. Node 14 syntax.
const { performance } = require('perf_hooks');
const { createAbortController, AbortError } = require('@lab/loop-kit/abort');
const { startLoopWatch, withCollector } = require('@lab/loop-kit/event-loop');
const { round } = require('@lab/loop-kit/round');
const { instrumentation } = require('./metrics');

// Whether runs split their blocks into running and waiting (a setting for the instrumentation-cost benchmark), read once.
const ATTRIBUTE = instrumentation().blockAttribution;

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


/**
 * One run's timed section, as every workload times it: body(signal) watched for event-loop blocks and bounded by
 * timeoutMs and the client. Resolves {value (undefined if interrupted), timing (finish()'s), eventLoop}; rejects
 * with a failure that is not the interruption. The watch stops however the body ends, so its timers never outlive
 * the run; eventLoop then waits the few turns it takes the collector's pauses to be reported, to say their part of
 * the blocks (after the timed section: the run's time does not hold them).
 */
async function runControlled(body, { timeoutMs, clientSignal }) {
  const stopWatch = startLoopWatch({ attribute: ATTRIBUTE });
  const control = startRunControl({ timeoutMs, clientSignal });
  let value;
  let timing;
  try {
    value = await body(control.signal);
    timing = control.finish();
  } catch (err) {
    timing = control.finish(err); // rethrows a failure that is not the interruption
  } finally {
    stopWatch();
  }
  return { value, timing, eventLoop: await withCollector(stopWatch()) };
}

/** The result fields every controlled run reports after its own (CONTRACT.md), from runControlled's answer. */
const controlFields = ({ timing, eventLoop }) => ({
  interrupted: timing.interrupted,
  interruptedBy: timing.interruptedBy,
  overshootMs: timing.overshootMs,
  eventLoop,
});

module.exports = { startRunControl, runControlled, controlFields };
