'use strict';
// The server's side of a scenario, asked of Prometheus when the scenario ends (its HTTP API, query_range over the
// scenario's window at one point a second) and stored in the scenario's result, so the report never needs
// Prometheus later: every job's event-loop lag p99 and max (the JVM's stand-in: a request's wait for a handler
// thread), CPU and RSS, the run times of the approach under load, and why a target stalled (event-loop utilization and
// GC pauses, server-runtime.js). Where Prometheus cannot be reached the section says so and the run goes on on its
// own checks.
const { round } = require('@lab/loop-kit/round');
const { METRIC, JVM_METRIC } = require('@lab/node-kit/metrics');
const { runtimeFigures } = require('./server-runtime');
const { MACHINE_QUERIES } = require('../machine/busy-machine');

const STEP_SECONDS = 1;
const QUERY_TIMEOUT_MS = 5000;
// Prometheus scrapes every second (prometheus.yml), and prom-client's lag figures describe the interval before each
// scrape: one more scrape of the target after the scenario covers its last second. The driver waits for it, asking
// every POLL_MS, at most SETTLE_MS (then the last second may be missing, nothing worse).
const SETTLE_MS = 3000;
const POLL_MS = 200;

// series name -> PromQL, one series per job. These are the one definition of each figure: scenario results and the
// live page (src/live/series.js) both read them.
const JOB_QUERIES = {
  lagP99Seconds: 'max by (job) (nodejs_eventloop_lag_p99_seconds)',
  lagMaxSeconds: 'max by (job) (nodejs_eventloop_lag_max_seconds)',
  cpuCores: 'sum by (job) (irate(process_cpu_seconds_total[5s]))',
  rssBytes: 'sum by (job) (process_resident_memory_bytes)',
  // Why a loop stalls (server-runtime.js reads the scenario's figures from the same metrics): the share of each second
  // the event loop was busy, and the share the collector paused the process, with the longest pause of each second.
  // The JVM exports lab_gc_pause_seconds too: the pauses G1 reports (young and mixed, full), which stop every thread.
  eluRatio: `sum by (job) (irate(${METRIC.loopBusy}[5s]))`,
  gcPauseSecondsPerSecond: `sum by (job) (irate(${METRIC.gcPause}_sum[5s]))`,
  gcPauseMaxSeconds: `max by (job) (${METRIC.gcPauseMax})`,
  // The share of each second the loop's thread was ready but waited for a CPU: the machine's part of the lag.
  cpuWaitRatio: `sum by (job) (irate(${METRIC.loopCpuWait}[5s]))`,
  // The share of each second the job's cgroup (its container) was throttled by a CPU quota: a limit, not a neighbour.
  throttledRatio: `sum by (job) (irate(${METRIC.cgroupThrottled}[5s]))`,
  // The JVM has no event loop: what stands in for its lag is the time a request waited for a handler thread
  // (LabMetrics.kt), its p99 over the last seconds and its longest since the last scrape, as prom-client's lag is.
  threadWaitP99Seconds: `histogram_quantile(0.99, sum by (job, le) (irate(${JVM_METRIC.threadWait}_bucket[5s])))`,
  threadWaitMaxSeconds: `max by (job) (${JVM_METRIC.threadWaitMax})`,
};


const quote = (value) => JSON.stringify(value);

function runQueries(job, run) {
  const selector = `job=${quote(job)},workload=${quote(run.workload)},approach=${quote(run.approach)}`;
  return {
    p50Seconds: `histogram_quantile(0.5, sum by (le) (rate(lab_run_duration_seconds_bucket{${selector}}[5s])))`,
    p99Seconds: `histogram_quantile(0.99, sum by (le) (rate(lab_run_duration_seconds_bucket{${selector}}[5s])))`,
    runsPerSecond: `sum(rate(lab_run_duration_seconds_count{${selector}}[5s]))`,
  };
}

async function queryRange(prometheus, expr, window) {
  const params = new URLSearchParams({ query: expr, start: String(window.start), end: String(window.end), step: String(STEP_SECONDS) });
  const res = await fetch(`${prometheus}/api/v1/query_range?${params}`, { signal: AbortSignal.timeout(QUERY_TIMEOUT_MS) });
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || body.status !== 'success') throw new Error(`query_range ${expr}: HTTP ${res.status} ${body ? body.error || '' : ''}`.trim());
  // [[unix seconds, value]], NaN (no runs in a window) dropped
  return body.data.result.map((s) => ({
    metric: s.metric,
    points: s.values.map(([t, v]) => [t, Number(v)]).filter(([, v]) => Number.isFinite(v)).map(([t, v]) => [t, round(v, 6)]),
  }));
}

/**
 * An instant query's result ([{metric, value: [t, text]}], or [{metric, values}] for a range selector), at `time`
 * (unix s; now without), or a thrown error naming the query.
 */
async function queryInstant(prometheus, expr, time) {
  const params = new URLSearchParams(time === undefined ? { query: expr } : { query: expr, time: String(time) });
  const res = await fetch(`${prometheus}/api/v1/query?${params}`, { signal: AbortSignal.timeout(QUERY_TIMEOUT_MS) });
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || body.status !== 'success') throw new Error(`query ${expr}: HTTP ${res.status}`);
  return body.data.result;
}

/** Why asking Prometheus failed, in words: a timeout, a refused connection (its code), or the answer's error. */
function describeFailure(err) {
  if (err.name === 'TimeoutError') return `Prometheus did not answer in ${QUERY_TIMEOUT_MS} ms`;
  return err.cause ? `${err.message}: ${err.cause.code || err.cause.message}` : err.message;
}

/** Waits until Prometheus holds a scrape of job taken after afterMs, or until deadlineMs. */
async function scrapedAfter(prometheus, job, afterMs, deadlineMs) {
  for (;;) {
    const [sample] = await queryInstant(prometheus, `max(timestamp(up{job=${quote(job)}}))`);
    if ((sample && Number(sample.value[1]) * 1000 > afterMs) || Date.now() + POLL_MS > deadlineMs) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The server section of a scenario that ran from startMs to endMs (epoch ms) against `target`:
 * {prometheus, available, window: {start, end} (unix s), stepSeconds, jobs: {job: {lagP99Seconds, ...: [[t, v]]}},
 * run: {workload, approach, p50Seconds, p99Seconds, runsPerSecond} | null, elu, gc, missing (server-runtime.js)}, or
 * {prometheus, available: false, error}.
 * prometheus null (PROMETHEUS_URL=none) gives available: false without asking.
 */
async function serverSeries(prometheus, scenario, startMs, endMs, { settleMs = SETTLE_MS } = {}) {
  if (!prometheus) return { prometheus: null, available: false, error: 'PROMETHEUS_URL is none' };
  const window = { start: Math.floor(startMs / 1000), end: Math.ceil(endMs / 1000) + STEP_SECONDS };
  try {
    await scrapedAfter(prometheus, scenario.target, endMs, endMs + settleMs);
    const jobs = {};
    for (const [name, expr] of Object.entries(JOB_QUERIES)) {
      for (const series of await queryRange(prometheus, expr, window)) {
        const job = series.metric.job;
        if (!job) continue;
        jobs[job] = jobs[job] || {};
        jobs[job][name] = series.points;
      }
    }
    // The machine beside the lab (busy-machine.js): its CPU by mode, from the driver, and every job's own.
    const machine = {};
    for (const [name, expr] of Object.entries(MACHINE_QUERIES)) {
      const [series] = await queryRange(prometheus, expr, window);
      machine[name] = series ? series.points : [];
    }
    const target = scenario.run || null;
    let run = null;
    if (target) {
      run = { workload: target.workload, approach: target.approach };
      for (const [name, expr] of Object.entries(runQueries(scenario.target, target))) {
        const [series] = await queryRange(prometheus, expr, window);
        run[name] = series ? series.points : [];
      }
    }
    // One scrape interval before the window too: the scrape at or before its start is what its figures grow from.
    const figures = await runtimeFigures((selector) => queryInstant(prometheus, selector, window.end), window.end - window.start + STEP_SECONDS, Object.keys(jobs));
    return Object.assign({ prometheus, available: true, window, stepSeconds: STEP_SECONDS, jobs, run, machine }, figures);
  } catch (err) {
    return { prometheus, available: false, window, error: describeFailure(err) };
  }
}

/** The series of the scenario's own target in a result (jobs[scenario.target]); undefined without them. */
function targetSeriesOf(outcome) {
  const server = outcome.server;
  return server && server.available && server.jobs ? server.jobs[outcome.scenario.target] : undefined;
}

/** The highest value of a [[t, seconds]] series, in ms (3 decimals); null without samples. */
function peakMs(points) {
  if (!points || points.length === 0) return null;
  return round(Math.max(...points.map(([, v]) => v)) * 1000, 3);
}

module.exports = { serverSeries, targetSeriesOf, peakMs, queryRange, queryInstant, describeFailure, quote, JOB_QUERIES, STEP_SECONDS };
