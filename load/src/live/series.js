'use strict';
// The live page's charts as data, asked of Prometheus through the driver (GET /live/series?seconds=N): per target, the
// figures a scenario's result keeps (JOB_QUERIES: event-loop lag p99 and max, CPU, RSS, the JVM's GC pauses), the
// probe's and the scenario's latency p99 as the driver's histograms give them, the share of the machine's CPU that went
// outside the lab (busy-machine.js; on each target's CPU chart in cores), and each scenario's start and end from
// lab_load_scenario_active, one point a second. What a page may ask is bounded here: a window of at most MAX_SECONDS
// at the fixed one-second step (never a step of its own), one set of queries at a time, and a set asked less than
// REUSE_MS ago is answered again instead of asked anew, so no number of open pages can overload Prometheus.
const { queryRange, queryInstant, describeFailure, quote, JOB_QUERIES, STEP_SECONDS } = require('../scenario/server-series');
const { MACHINE_QUERIES, machineShares } = require('../machine/busy-machine');
const { PROBE_LATENCY, REQUEST_LATENCY, SCENARIO_ACTIVE } = require('../driver/metrics');
const { HttpError } = require('@lab/node-kit/errors');

const SECONDS = { default: 300, min: 10, max: 900 };
const REUSE_MS = 1000;
// Requests waiting for the one set of queries in flight; past this a request is refused (503, Retry-After).
const MAX_WAITING = 8;

// A latency p99 per target and per second from the driver's histograms: irate over the last two scrapes (scraped
// every second), so each point describes its own second; buckets are those of metrics.js, so values are interpolated
// between them.
const p99 = (metric) => `histogram_quantile(0.99, sum by (target, le) (irate(${metric}_bucket{job="load"}[5s])))`;
const TARGET_QUERIES = { probeP99Seconds: p99(PROBE_LATENCY), requestP99Seconds: p99(REQUEST_LATENCY) };
// Grafana's "Load scenarios" annotation (dashboards/json/*.json): 1 while a scenario runs.
const ACTIVE_QUERY = `max by (scenario, target) (${SCENARIO_ACTIVE}{job="load"})`;

/** [{start, end}] of the runs of consecutive points at 1 in a [[t, v]] series. */
function activeSpans(points) {
  const spans = [];
  let open = null;
  for (const [t, v] of points) {
    if (v >= 1 && open === null) open = { start: t, end: t };
    else if (v >= 1) open.end = t;
    else if (open !== null) {
      spans.push(open);
      open = null;
    }
  }
  if (open !== null) spans.push(open);
  return spans;
}

/**
 * The newest scrape of any target, in unix seconds: the window ends there, not at the clock. A query past the last
 * scrape would repeat its values up to now (Prometheus' lookback), and a chart would look live while Prometheus had
 * stopped scraping.
 */
async function newestScrape(prometheus, targets) {
  const [sample] = await queryInstant(prometheus, `max(timestamp(up{job=~${quote(targets.map((t) => t.replace(/[^a-z0-9-]/g, '')).join('|'))}}))`);
  return sample ? Number(sample.value[1]) : null;
}

async function ask(prometheus, targets, seconds, busyPercent) {
  const newest = await newestScrape(prometheus, targets);
  if (newest === null) return { prometheus, newestScrape: null, window: null, stepSeconds: STEP_SECONDS, jobs: {}, scenarios: [], machine: null, busyPercent };
  const end = Math.floor(newest);
  const window = { start: end - seconds, end };
  const jobs = Object.fromEntries(targets.map((t) => [t, {}]));
  const byJob = Object.entries(JOB_QUERIES).map(async ([name, expr]) => {
    for (const series of await queryRange(prometheus, expr, window)) if (jobs[series.metric.job]) jobs[series.metric.job][name] = series.points;
  });
  const byTarget = Object.entries(TARGET_QUERIES).map(async ([name, expr]) => {
    for (const series of await queryRange(prometheus, expr, window)) if (jobs[series.metric.target]) jobs[series.metric.target][name] = series.points;
  });
  let scenarios = [];
  const active = queryRange(prometheus, ACTIVE_QUERY, window).then((list) => {
    scenarios = list.flatMap((s) => activeSpans(s.points).map((span) => Object.assign({ scenario: s.metric.scenario, target: s.metric.target }, span))).sort((a, b) => a.start - b.start);
  });
  const machine = {};
  const byMachine = Object.entries(MACHINE_QUERIES).map(async ([name, expr]) => {
    const [series] = await queryRange(prometheus, expr, window);
    machine[name] = series ? series.points : [];
  });
  await Promise.all(byJob.concat(byTarget, byMachine, [active]));
  // The machine's CPU outside the lab, a share of all its CPUs each second, and the same in cores on each target's
  // CPU chart, beside what the target itself used.
  const { elsewhereShare, stealShare } = machineShares(machine);
  const cpus = new Map((machine.cpus || []).map(([t, v]) => [t, v]));
  for (const job of Object.values(jobs)) job.machineElsewhereCores = elsewhereShare.map(([t, v]) => [t, v * cpus.get(t)]);
  return { prometheus, newestScrape: newest, window, stepSeconds: STEP_SECONDS, jobs, scenarios, machine: { elsewhereShare, stealShare, load1: machine.load1 || [], cpus: machine.cpus || [] }, busyPercent };
}

/**
 * liveSeries(seconds, targets (names)) for a driver asking prometheus (null: PROMETHEUS_URL=none): resolves the
 * page's data, or throws the HttpError the page shows (503 without Prometheus or while too many wait, 502 when it
 * cannot be reached or fails). The targets are the driver's now (an attached service comes and goes).
 */
function createLiveSeries(prometheus, busyPercent) {
  let last = null; // {key (seconds and targets), at, promise}
  let waiting = 0;
  let queue = Promise.resolve();
  return async function liveSeries(seconds, targets) {
    if (!prometheus) throw new HttpError(503, 'no live series: PROMETHEUS_URL is none', { prometheus: null });
    const key = `${seconds} ${targets.join(',')}`;
    if (last && last.key === key && Date.now() - last.at < REUSE_MS) return last.promise;
    if (waiting >= MAX_WAITING) throw new HttpError(503, `Prometheus is being asked for ${waiting} pages already; retry`, { prometheus }, { 'Retry-After': '1' });
    waiting++;
    const promise = queue
      .then(() => ask(prometheus, targets, seconds, busyPercent))
      .catch((err) => {
        throw new HttpError(502, `Prometheus at ${prometheus} failed: ${describeFailure(err)}`, { prometheus });
      })
      .finally(() => waiting--);
    queue = promise.catch(() => undefined);
    last = { key, at: Date.now(), promise };
    return promise;
  };
}

module.exports = { createLiveSeries, activeSpans, SECONDS, REUSE_MS, MAX_WAITING };
