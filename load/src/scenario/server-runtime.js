'use strict';
// Why a target stalled over a scenario's window, beside the lag that shows that it did: the mean event-loop
// utilization, and the collector's pauses (how many, their total, the longest and when, the p99). Read from the raw
// samples Prometheus scraped in the window (an instant query of a range selector at the window's end), not from
// rate() or increase(), which extrapolate to the window's edges: a count of pauses stays a whole number, and the mean
// utilization is exactly the busy seconds between two scrapes over the seconds between them. The metric names are
// the Node services' (node-kit/metrics.js), which the JVM exports too for its collector (LabMetrics.kt).
const { METRIC } = require('@lab/node-kit/metrics');
const { round } = require('@lab/loop-kit/round');

/** The range selectors asked, one instant query each. */
const RAW = {
  busy: METRIC.loopBusy,
  pauseCount: `${METRIC.gcPause}_count`,
  pauseSum: `${METRIC.gcPause}_sum`,
  pauseBucket: `${METRIC.gcPause}_bucket`,
  pauseMax: METRIC.gcPauseMax,
};

/**
 * How much a counter grew over its samples ([[t, v]], oldest first): a drop is a restart, counted from zero. A series
 * born inside the window (prom-client makes a labelled series at its first observation: the first minor pause) grew
 * from zero before its first sample: `born` says so.
 */
function growth(values, born = false) {
  let total = born && values.length ? values[0][1] : 0;
  for (let i = 1; i < values.length; i++) total += values[i][1] >= values[i - 1][1] ? values[i][1] - values[i - 1][1] : values[i][1];
  return total;
}

/**
 * The q-quantile of a histogram's growth per bucket ([{le, count}], cumulative), interpolated within its bucket as
 * Prometheus' histogram_quantile does; null without observations. One in the +Inf bucket gives the highest finite bound.
 */
function quantileOf(q, buckets) {
  const sorted = buckets.slice().sort((a, b) => a.le - b.le);
  const total = sorted.length ? sorted[sorted.length - 1].count : 0;
  if (total <= 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const { le, count } of sorted) {
    if (count >= rank) {
      if (le === Infinity) return lowerBound;
      return lowerBound + (le - lowerBound) * ((rank - lowerCount) / (count - lowerCount));
    }
    lowerBound = le;
    lowerCount = count;
  }
  return lowerBound;
}

/** Prometheus' matrix answer ([{metric, values: [[t, text]]}]) as {job: [{metric, values: [[t, number]]}]}. */
function byJob(result) {
  const jobs = {};
  for (const series of result) {
    const job = series.metric.job;
    if (!job) continue;
    (jobs[job] = jobs[job] || []).push({ metric: series.metric, values: series.values.map(([t, v]) => [Number(t), Number(v)]) });
  }
  return jobs;
}

/** The mean utilization over the busy counter's samples: {value} or {value: null, why}. */
function eluOf(series) {
  if (!series || series.length === 0) return { value: null, why: `exports no ${RAW.busy} (no event loop, or not scraped in the window)` };
  const values = series[0].values;
  if (values.length < 2) return { value: null, why: 'fewer than two scrapes in the window' };
  const seconds = values[values.length - 1][0] - values[0][0];
  return { value: round(growth(values) / seconds, 4) };
}

/** The pauses' figures from one job's raw series: {value: {count, totalMs, maxMs, p99Ms, longestAt}} or {value: null, why}. */
function gcOf(raw) {
  if (!raw.pauseCount) return { value: null, why: `exports no ${METRIC.gcPause} (or was not scraped in the window)` };
  // The job's first scrape in the window: a series whose samples start later did not exist then.
  const firstScrape = Math.min(...Object.values(raw).flat().map((s) => s.values[0][0]));
  const grownOf = (s) => growth(s.values, s.values[0][0] > firstScrape);
  const grown = (list) => (list || []).reduce((sum, s) => sum + grownOf(s), 0);
  const count = Math.round(grown(raw.pauseCount));
  const totalMs = round(grown(raw.pauseSum) * 1000, 3);
  const perLe = new Map();
  for (const s of raw.pauseBucket || []) {
    const le = s.metric.le === '+Inf' ? Infinity : Number(s.metric.le);
    perLe.set(le, (perLe.get(le) || 0) + grownOf(s));
  }
  const p99 = quantileOf(0.99, [...perLe].map(([le, n]) => ({ le, count: n })));
  // The scrape that saw the longest pause: the pause ended in the scrape interval before it. The first scrape's value
  // is the interval before the window, as it is the baseline the counts grow from: left out.
  let longest = null;
  for (const s of raw.pauseMax || []) for (const [t, v] of s.values) if (t > firstScrape && v > 0 && (longest === null || v > longest[1])) longest = [t, v];
  const none = count === 0;
  return {
    value: {
      count,
      totalMs,
      // Pauses counted but none longer than 0: the JVM's whole milliseconds round a sub-millisecond pause to 0.
      maxMs: none ? null : longest ? round(longest[1] * 1000, 3) : 0,
      // Interpolation within a bucket can pass the longest pause seen (a 54 ms longest read as a 79 ms p99 in the
      // 50-100 ms bucket): the p99 is never longer than the longest.
      p99Ms: none || p99 === null ? null : round(Math.min(p99, longest ? longest[1] : Infinity) * 1000, 3),
      longestAt: none || !longest ? null : new Date(longest[0] * 1000).toISOString(),
    },
  };
}

/**
 * {elu: {job: ratio | null}, gc: {job: {count, totalMs, maxMs, p99Ms, longestAt} | null}, missing: {job: {elu?, gc?}}}
 * for every job in `jobs` and every job that exports the metrics, from `ask(selector) -> matrix result` (an instant
 * query at the window's end of each RAW selector over `seconds`). A null always has its reason in `missing`.
 */
async function runtimeFigures(ask, seconds, jobs) {
  const raw = {};
  for (const [name, metric] of Object.entries(RAW)) {
    for (const [job, series] of Object.entries(byJob(await ask(`${metric}[${seconds}s]`)))) {
      raw[job] = raw[job] || {};
      raw[job][name] = series;
    }
  }
  const figures = { elu: {}, gc: {}, missing: {} };
  for (const job of [...new Set(jobs.concat(Object.keys(raw)))].sort()) {
    const own = raw[job] || {};
    for (const [field, figure] of [['elu', eluOf(own.busy)], ['gc', gcOf(own)]]) {
      figures[field][job] = figure.value;
      if (figure.value === null) figures.missing[job] = Object.assign(figures.missing[job] || {}, { [field]: figure.why });
    }
  }
  return figures;
}

/**
 * The scenario target's own figures from a result's server section: {elu, gc} (null where missing or not asked; the
 * section's `missing` says why).
 */
function targetFiguresOf(outcome) {
  const server = outcome.server;
  const target = outcome.scenario.target;
  const own = (field) => (server && server.available && server[field] && server[field][target] !== undefined ? server[field][target] : null);
  return { elu: own('elu'), gc: own('gc') };
}

module.exports = { runtimeFigures, targetFiguresOf, quantileOf, growth, RAW };
