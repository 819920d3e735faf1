'use strict';
// A scenario's summary: what /runs/latest lists, run.json keeps and each printed line says (the driver's log and
// run-suite.js print the same line).
const { targetSeriesOf, peakMs } = require('../scenario/server-series');
const { targetFiguresOf } = require('../scenario/server-runtime');
const { round } = require('@lab/loop-kit/round');
const { busyWords } = require('../machine/busy-machine');

// How many of a scenario's run times (checks.runs.msSamples, up to scenario.js' 2000) its summary carries, for the try
// choice's rank test (try-choice.js): 3 rounds give an approach up to 300, plenty for a Mann-Whitney test, while
// /runs/latest, polled every second with every summary in it, stays small.
const SUMMARY_RUN_SAMPLES = 100;

const verdictOf = (summary) => (summary.stopped ? 'stopped' : summary.passed ? 'passed' : 'failed');

function summarize(outcome) {
  const r = outcome.result;
  const run = outcome.scenario.run || null;
  return Object.assign({
    name: outcome.scenario.name,
    target: outcome.scenario.target,
    path: outcome.scenario.path,
    workload: run ? run.workload : null,
    approach: run ? run.approach : null,
    passed: outcome.passed,
    stopped: outcome.stopped === true,
    problems: outcome.problems,
    flags: outcome.flags,
    thresholds: outcome.thresholds,
    requests: r.requests.total,
    requestsPerSecond: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP90Ms: r.latency.p90,
    latencyP99Ms: r.latency.p99,
    latencyMaxMs: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    invalid: outcome.checks.invalid,
    // null without a probe, or when no probe request was answered (see the result file's probe section)
    probeP99Ms: outcome.probe && outcome.probe.latencyMs ? outcome.probe.latencyMs.p99 : null,
    probeMaxMs: outcome.probe && outcome.probe.latencyMs ? outcome.probe.latencyMs.max : null,
    server: !outcome.server ? 'not asked' : outcome.server.available ? 'available' : `unavailable: ${outcome.server.error}`,
    // What the machine did beside the lab (busy-machine.js' machineFigures), null where it was not watched.
    machineBusy: outcome.machineBusy || null,
  }, runFigures(outcome), stallFigures(outcome));
}

/** Why the target stalled (server-runtime.js): its mean ELU and its GC pauses; null where the section has none. */
function stallFigures(outcome) {
  const { elu, gc } = targetFiguresOf(outcome);
  return { serverElu: elu, gcPauses: gc ? gc.count : null, gcPauseMaxMs: gc ? gc.maxMs : null, gcPauseP99Ms: gc ? gc.p99Ms : null };
}

const orNull = (value) => (typeof value === 'number' ? value : null);

/**
 * What the validated /run answers said of their runs: how many, the mean time of one run as the service timed it, and
 * the longest block of the target's event loop during a run's timed section (each answer's eventLoop.maxBlockMs),
 * else, for answers that report none, the worst second of the server's nodejs_eventloop_lag_max over the scenario
 * (Prometheus, as the report shows it), with where it came from. The runs' own figure comes first because it belongs
 * to the approach alone: the server's worst second also holds the lab's own check of each answer (hashing the
 * output) and, at the window's edges, the seconds of the scenario before (a 20 MB document's native stringify showed
 * its 317 ms in the first second of the next approach's window). That second is kept beside it (serverLagMaxMs).
 */
function runFigures(outcome) {
  const runs = outcome.checks.runs;
  const job = targetSeriesOf(outcome);
  const serverLagMaxMs = job ? peakMs(job.lagMaxSeconds) : null;
  const reported = runs && runs.count > 0 ? runs.maxBlockMs : null;
  return Object.assign({
    runs: runs ? runs.count : 0,
    runMeanMs: runs && runs.count > 0 ? round(runs.totalMs / runs.count) : null,
    longestBlockMs: reported !== null ? reported : serverLagMaxMs,
    longestBlockFrom: reported !== null ? 'runs' : serverLagMaxMs !== null ? 'server lag max' : null,
    // The runs' longest block, split: its time on a CPU and waiting for one; and the longest block the runs' own work
    // made (each block less its wait): what a busy machine cannot cause. null where the service does not say.
    longestBlockCpuMs: reported !== null ? orNull(runs.maxBlockCpuMs) : null,
    longestBlockWaitMs: reported !== null ? orNull(runs.maxBlockWaitMs) : null,
    longestOwnBlockMs: reported !== null ? orNull(runs.maxOwnBlockMs) : null,
    // The collector's pauses inside those two blocks: V8's, which no knob of the approach moves.
    longestBlockGcMs: reported !== null ? orNull(runs.maxBlockGcMs) : null,
    longestOwnBlockGcMs: reported !== null ? orNull(runs.maxOwnBlockGcMs) : null,
    // The longest block the runs' own work made outside those pauses (loop-kit/event-loop.js: it errs long).
    longestOwnBlockLessGcMs: reported !== null ? orNull(runs.maxOwnBlockLessGcMs) : null,
    serverLagMaxMs,
    runMsSamples: runs && Array.isArray(runs.msSamples) ? spreadOver(runs.msSamples, SUMMARY_RUN_SAMPLES) : [],
  }, threadFigures(runs));
}

/**
 * From a service without an event loop (the JVM: each answer's `thread`, the whole run on one thread): the slowest run's
 * wall time, its time on a CPU and its time waiting for one, and the share of all the runs' wall time their threads
 * waited for a CPU, which a busy machine raises and the approach cannot. Not a block of an event loop: while a run holds
 * its thread, the JVM serves other requests on others. null where the service does not say.
 */
function threadFigures(runs) {
  const slowest = runs && typeof runs.maxRunWallMs === 'number';
  return {
    longestRunWallMs: slowest ? runs.maxRunWallMs : null,
    longestRunCpuMs: slowest ? orNull(runs.maxRunCpuMs) : null,
    longestRunWaitMs: slowest ? orNull(runs.maxRunWaitMs) : null,
    runWaitShare: runs && runs.totalRunWallMs > 0 ? round(runs.totalRunWaitMs / runs.totalRunWallMs) : null,
  };
}

/**
 * At most count of samples, taken evenly across them rather than the first count: the first runs of a window are
 * also the first after the previous scenario, and would stand for the whole window.
 */
function spreadOver(samples, count) {
  if (samples.length <= count) return samples.slice();
  return Array.from({ length: count }, (_, i) => samples[Math.floor((i * samples.length) / count)]);
}

/**
 * The line printed when a scenario ends: verdict, throughput, latency, the probe (probeText, or its figures from the
 * summary), thresholds, flags and problems.
 */
function describeSummary(summary, probeText) {
  const verdict = summary.passed ? 'passed' : verdictOf(summary).toUpperCase();
  const probe = probeText || (typeof summary.probeMaxMs === 'number' ? `probe p99 ${summary.probeP99Ms} ms, max ${summary.probeMaxMs} ms` : null);
  const probed = probe ? `; ${probe}` : '';
  const evaluated = summary.thresholds.filter((t) => t.passed !== null);
  const thresholds = evaluated.length ? `; thresholds ${evaluated.filter((t) => t.passed).length}/${evaluated.length}` : '';
  const flags = summary.flags.length ? ` [FLAGGED: ${summary.flags.join('; ')}]` : '';
  const problems = summary.passed ? '' : ` — ${summary.problems.join('; ')}`;
  const busy = summary.machineBusy && summary.machineBusy.busy ? ` [${busyWords(summary.machineBusy)}]` : '';
  return `${verdict} ${summary.name}: ${summary.requests} requests, ${summary.requestsPerSecond} req/s, p99 ${summary.latencyP99Ms} ms${probed}${describeStall(summary)}${thresholds}${flags}${problems}${busy}`;
}

/** "; server ELU 0.94, 42 GC pauses, longest 68.3 ms" with what the summary has of them; '' with nothing. */
function describeStall(summary) {
  const parts = [];
  if (typeof summary.serverElu === 'number') parts.push(`server ELU ${summary.serverElu}`);
  if (typeof summary.gcPauses === 'number') parts.push(`${summary.gcPauses} GC pauses${typeof summary.gcPauseMaxMs === 'number' ? `, longest ${summary.gcPauseMaxMs} ms` : ''}`);
  return parts.length ? `; ${parts.join(', ')}` : '';
}

module.exports = { summarize, describeSummary, verdictOf };
