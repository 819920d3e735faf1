'use strict';
// Thresholds, k6 style: a suite (for all its scenarios) and a scenario (over the suite's) may declare limits on what a
// scenario measured; each is evaluated when the scenario ends, shown in its printed line, result file and report, and
// a failed one fails the scenario and so the run. A misspelt name is an error when the suite loads (k6 once passed
// runs whose threshold it could not read).
//
// A threshold on the server's side (serverLag*) reads the series the driver fetched from Prometheus (server-series.js):
// with no such series (Prometheus unreachable, or a target that exports no event-loop lag, like the JVM) it is not
// evaluated, says why, and fails nothing: the run still stands on its own checks.

const { targetSeriesOf, peakMs } = require('./server-series');

// name -> [what it limits, how to read it from a scenario's outcome, "max" (actual ≤ limit) or "min" (actual ≥ limit)]
const THRESHOLDS = {
  latencyP50Ms: ['client latency p50 (ms)', (o) => o.result.latency.p50, 'max'],
  latencyP99Ms: ['client latency p99 (ms)', (o) => o.result.latency.p99, 'max'],
  latencyMaxMs: ['client latency max (ms)', (o) => o.result.latency.max, 'max'],
  probeP99Ms: ['probe latency p99 (ms)', (o) => (o.probe && o.probe.latencyMs ? o.probe.latencyMs.p99 : undefined), 'max'],
  probeMaxMs: ['probe latency max (ms)', (o) => (o.probe && o.probe.latencyMs ? o.probe.latencyMs.max : undefined), 'max'],
  // The part of the runs' longest block the approach ran itself (its wait for a CPU left out): a busy machine or a lost
  // packet cannot fail it, where a bystander's latency (probe*) can.
  ownBlockMaxMs: ["the runs' longest block, its own running part, as the service timed it (ms)", (o) => (o.checks.runs && o.checks.runs.count > 0 ? o.checks.runs.maxOwnBlockMs : undefined), 'max'],
  serverLagP99Ms: ["server event-loop lag p99, the scenario's worst second (ms)", (o) => serverPeak(o, 'lagP99Seconds'), 'max'],
  serverLagMaxMs: ["server event-loop lag max, the scenario's worst second (ms)", (o) => serverPeak(o, 'lagMaxSeconds'), 'max'],
  errors: ['connection errors and timeouts', (o) => o.result.errors, 'max'],
  non2xx: ['non-2xx answers', (o) => o.result.non2xx, 'max'],
  invalid: ['answers not validated', (o) => o.checks.invalid, 'max'],
  minRequestsPerSecond: ['requests per second (average)', (o) => o.result.requests.average, 'min'],
};

const SERVER_SERIES_MISSING = 'no server series (Prometheus unreachable, or the target exports none)';
const WHY_UNMEASURED = {
  serverLagP99Ms: SERVER_SERIES_MISSING,
  serverLagMaxMs: SERVER_SERIES_MISSING,
  ownBlockMaxMs: "no run reported its block's own part (a service without a thread clock, or one that timed no run)",
};

/** The peak, in ms, of one of the scenario target's server series; null without one. */
const serverPeak = (outcome, series) => peakMs((targetSeriesOf(outcome) || {})[series]);

/** Throws, naming where and the known names, unless thresholds is {name: finite number ≥ 0, ...} of known names. */
function checkThresholds(thresholds, where) {
  if (thresholds === null || typeof thresholds !== 'object' || Array.isArray(thresholds)) {
    throw new Error(`${where}: thresholds must be an object like {"latencyP99Ms": 500, "errors": 0}`);
  }
  for (const [name, limit] of Object.entries(thresholds)) {
    if (!(name in THRESHOLDS)) throw new Error(`${where}: unknown threshold "${name}"; thresholds are ${Object.keys(THRESHOLDS).join(', ')}`);
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) throw new Error(`${where}: threshold ${name} must be a number ≥ 0, got ${JSON.stringify(limit)}`);
  }
}

/**
 * Evaluates thresholds against a scenario's outcome: [{name, description, bound ("max"|"min"), limit, actual,
 * passed}], passed null (and a `why`) when there is nothing to evaluate.
 */
function evaluateThresholds(thresholds, outcome) {
  return Object.entries(thresholds || {}).map(([name, limit]) => {
    const [description, read, bound] = THRESHOLDS[name];
    const actual = read(outcome);
    if (actual === undefined || actual === null) {
      return { name, description, bound, limit, actual: null, passed: null, why: WHY_UNMEASURED[name] || 'nothing measured' };
    }
    return { name, description, bound, limit, actual, passed: bound === 'max' ? actual <= limit : actual >= limit };
  });
}

/**
 * The thresholds a scenario is held to: the suite's `thresholds`, then its `thresholdsByApproach` for the approach the
 * scenario runs (generated scenarios included), then the scenario's own, each name taken from the last that gives it.
 */
function thresholdsOf(suite, scenario, approach) {
  const byApproach = (suite.thresholdsByApproach || {})[approach] || {};
  return Object.assign({}, suite.thresholds, byApproach, scenario.thresholds);
}

/** "latencyP99Ms 412 > 400" for each failed threshold. */
const failedThresholds = (evaluated) => evaluated.filter((t) => t.passed === false).map((t) => `threshold ${t.name} ${t.actual} ${t.bound === 'max' ? '>' : '<'} ${t.limit}`);

module.exports = { THRESHOLDS, checkThresholds, thresholdsOf, evaluateThresholds, failedThresholds };
