'use strict';
// Run B against run A, scenario by scenario (matched by name): for each metric, the change of autocannon's totals and
// a Mann-Whitney U test on the per-second samples behind them, marked better, worse or no significant change; and
// the regressions that fail the comparison (significantly worse by more than maxRegression).
const { mannWhitney } = require('./mann-whitney');

// A difference is significant when the two-sided p-value is below this.
const ALPHA = 0.05;
const DEFAULT_MAX_REGRESSION = 0.1;

const VERDICT = { better: 'better', worse: 'worse', same: 'no significant change', noData: 'no data' };

// Each metric: the figure compared (autocannon's total for the scenario) and the per-second samples tested. Throughput
// is tested on every second's count, a silent second (0 answers) included: a stalled second is what a regression looks
// like. Latency p50 and p99 are tested on the same percentile of each second. There is no per-second p90: p90 is tested
// on each second's mean, which moves when the slower part of the distribution moves (unlike the median) but is not
// decided by the one or two slowest answers of a second (unlike the per-second p99, which on a loaded machine is one
// scheduling hiccup). A second without an answer has no latency and is left out, not counted as 0 ms. The server's
// event-loop lag (its longest delay of each second, read from Prometheus: read-run.js) is what "did my fix help?" asks
// of a service that blocked: its figure is the worst second, tested on every second's; a run without the server's
// series has no data for it.
const perSecond = (field) => (scenario) => scenario.perSecond.map((s) => s[field]).filter((v) => v !== null);
const METRICS = [
  { key: 'requestsPerSecond', label: 'requests/s', higherIsBetter: true, total: (s) => s.result.requests.average, samples: perSecond('requests') },
  { key: 'latencyP50Ms', label: 'latency p50 ms', higherIsBetter: false, total: (s) => s.result.latency.p50, samples: perSecond('latencyP50Ms') },
  { key: 'latencyP90Ms', label: 'latency p90 ms', higherIsBetter: false, total: (s) => s.result.latency.p90, samples: perSecond('latencyMeanMs') },
  { key: 'latencyP99Ms', label: 'latency p99 ms', higherIsBetter: false, total: (s) => s.result.latency.p99, samples: perSecond('latencyP99Ms') },
  { key: 'serverLagMaxMs', label: 'server lag max ms', higherIsBetter: false, total: (s) => (s.lagMaxMs && s.lagMaxMs.length ? Math.max(...s.lagMaxMs) : null), samples: (s) => s.lagMaxMs || [] },
];

/** MAX_REGRESSION as a fraction in [0, 1): "0.1" is 10 %. Empty or undefined gives the default; anything else throws. */
function parseMaxRegression(text) {
  if (text === undefined || text === '') return DEFAULT_MAX_REGRESSION;
  const value = Number(text);
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) || !(value >= 0 && value < 1)) {
    throw new RangeError(`MAX_REGRESSION must be a fraction in [0, 1) (0.1 is 10 %), got "${text}"`);
  }
  return value;
}

/** (b - a) / a, or null when a is 0 and b is too; Infinity when only a is 0. */
function relativeChange(a, b) {
  if (a === 0) return b === 0 ? 0 : b > 0 ? Infinity : -Infinity;
  return (b - a) / a;
}

function compareMetric(metric, scenarioA, scenarioB, maxRegression) {
  const a = metric.total(scenarioA);
  const b = metric.total(scenarioB);
  const change = a === null || b === null ? null : relativeChange(a, b);
  const row = { metric: metric.key, label: metric.label, higherIsBetter: metric.higherIsBetter, a, b, change, p: null, method: null, samplesA: 0, samplesB: 0, verdict: VERDICT.noData, regression: false };
  const sa = metric.samples(scenarioA);
  const sb = metric.samples(scenarioB);
  Object.assign(row, { samplesA: sa.length, samplesB: sb.length });
  if (sa.length === 0 || sb.length === 0) return row;
  const test = mannWhitney(sa, sb);
  Object.assign(row, { p: test.p, method: test.method });
  if (test.p >= ALPHA || test.direction === 0) return Object.assign(row, { verdict: VERDICT.same });
  const bHigher = test.direction > 0;
  row.verdict = bHigher === metric.higherIsBetter ? VERDICT.better : VERDICT.worse;
  // How much worse, from the totals: a drop for throughput, a rise for latency. A total that moved the other way than
  // the samples did is no regression to gate on.
  const worseBy = metric.higherIsBetter ? -change : change;
  row.regression = row.verdict === VERDICT.worse && worseBy > maxRegression;
  return row;
}

/**
 * Compares run b with run a (readRun's results). Returns {a, b, alpha, maxRegression, scenarios: [{name, notes,
 * metrics: [row]}], onlyInA: [name], onlyInB: [name], regressions: [{scenario, metric, change}]}.
 */
function compareRuns(runA, runB, maxRegression = DEFAULT_MAX_REGRESSION) {
  const scenarios = [];
  const regressions = [];
  for (const [name, scenarioB] of runB.scenarios) {
    const scenarioA = runA.scenarios.get(name);
    if (!scenarioA) continue;
    const notes = [];
    for (const [side, s] of [['A', scenarioA], ['B', scenarioB]]) {
      if (s.stopped) notes.push(`${side} was stopped before its end`);
      else if (!s.passed) notes.push(`${side} failed its checks`);
    }
    const metrics = METRICS.map((m) => compareMetric(m, scenarioA, scenarioB, maxRegression));
    for (const row of metrics) if (row.regression) regressions.push({ scenario: name, metric: row.label, change: row.change });
    scenarios.push({ name, notes, metrics });
  }
  const run = (r) => ({ id: r.id, dir: r.dir, suite: r.suite, startedAt: r.startedAt });
  return {
    a: run(runA),
    b: run(runB),
    alpha: ALPHA,
    maxRegression,
    scenarios,
    onlyInA: [...runA.scenarios.keys()].filter((n) => !runB.scenarios.has(n)),
    onlyInB: [...runB.scenarios.keys()].filter((n) => !runA.scenarios.has(n)),
    regressions,
  };
}

module.exports = { compareRuns, parseMaxRegression, relativeChange, METRICS, VERDICT, ALPHA, DEFAULT_MAX_REGRESSION };
