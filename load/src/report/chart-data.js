'use strict';
// The charts of one scenario as data for uPlot (https://github.com/leeoniya/uPlot): x in unix seconds, one array per
// series aligned on x (null where a series has no sample at that time). Series of different sources (the server's
// Prometheus samples on whole seconds, the client's per-second buckets from the scenario's start) are merged on the
// union of their times; the browser side joins the gaps (spanGaps), so each series is drawn from its own samples only.
const { targetSeriesOf } = require('../scenario/server-series');
const { machineShares } = require('../machine/busy-machine');

/** [{label, scale, points: [[t, v]]}] -> {series: [{label, scale, samples}], data: [x, ...ys]} */
function align(lines) {
  const times = [...new Set(lines.flatMap((line) => line.points.map(([t]) => t)))].sort((a, b) => a - b);
  const data = [times];
  for (const line of lines) {
    const byTime = new Map(line.points.map(([t, v]) => [t, v]));
    data.push(times.map((t) => (byTime.has(t) ? byTime.get(t) : null)));
  }
  return { series: lines.map((line) => ({ label: line.label, scale: line.scale, stroke: STROKES[line.label], samples: line.points.length })), data };
}

// One colour per quantity, the same in every chart: the client's p99 is the same blue beside the server's lag as in
// the client's own chart.
const STROKES = {
  'server lag p99 (ms)': '#d62728',
  'server lag max (ms)': '#ff7f0e',
  'JVM thread wait p99 (ms)': '#d62728',
  'JVM thread wait max (ms)': '#ff7f0e',
  'server GC longest pause (ms)': '#8c564b',
  'server ELU (busy share)': '#e377c2',
  'server CPU (cores)': '#d62728',
  'server RSS (MiB)': '#9467bd',
  'client latency p50 (ms)': '#17becf',
  'client latency p99 (ms)': '#1f77b4',
  'client latency max (ms)': '#7f7f7f',
  'requests/s': '#2ca02c',
};

const scaled = (points, factor) => (points || []).map(([t, v]) => [t, v === null ? null : Math.round(v * factor * 1000) / 1000]);

/**
 * The client's per-second samples of one field as [[unix s, value]], seconds without a value left out. Each is placed
 * at the end of its second (the last one at the scenario's end), as Prometheus places a rate or a lag window: both
 * then describe the time before their point.
 */
function clientPoints(scenarioFile, field) {
  const { startMs, endMs } = scenarioFile.window;
  return (scenarioFile.perSecond || []).filter((s) => s[field] !== null && s[field] !== undefined).map((s) => [Math.min(startMs + (s.second + 1) * 1000, endMs) / 1000, s[field]]);
}

/** The time range every chart of a scenario shows: its window, widened to the server series' window. */
function rangeOf(scenarioFile) {
  const server = scenarioFile.server && scenarioFile.server.window;
  const start = scenarioFile.window.startMs / 1000;
  const end = scenarioFile.window.endMs / 1000;
  return server ? [Math.min(start, server.start), Math.max(end, server.end)] : [start, end];
}

/**
 * The charts of a scenario result file: {charts: [{kind, title, series, data, range}], serverNotice}. serverNotice says,
 * when there is one, why the server's charts are missing (Prometheus unreachable, or the target exports no lag).
 */
function chartsOf(scenarioFile) {
  const target = scenarioFile.scenario.target;
  const server = scenarioFile.server;
  const job = targetSeriesOf(scenarioFile);
  const clientP99 = { label: 'client latency p99 (ms)', scale: 'ms', points: clientPoints(scenarioFile, 'latencyP99Ms') };
  const charts = [];
  const notices = [];
  if (!server || !server.available) {
    notices.push(`Server series unavailable: ${server && server.error ? server.error : 'the result holds no server section'}.`);
  } else if (!job) {
    notices.push(`Server series unavailable: Prometheus returned no series for ${target}.`);
  } else {
    // The collector's longest pause of each second beside the lag: a lag peak with a pause of its size is the GC's.
    const gcPause = job.gcPauseMaxSeconds ? [{ label: 'server GC longest pause (ms)', scale: 'ms', points: scaled(job.gcPauseMaxSeconds, 1000) }] : [];
    if (job.lagP99Seconds || job.lagMaxSeconds) {
      charts.push(Object.assign({ kind: 'lag', title: `${target} event-loop lag and GC pauses beside client latency` }, align([
        { label: 'server lag p99 (ms)', scale: 'ms', points: scaled(job.lagP99Seconds, 1000) },
        { label: 'server lag max (ms)', scale: 'ms', points: scaled(job.lagMaxSeconds, 1000) },
        clientP99,
      ].concat(gcPause))));
    } else if (job.threadWaitP99Seconds || job.threadWaitMaxSeconds) {
      // Without the client's p99, which the client's chart shows: a JVM run's answer takes seconds, and on its scale
      // the waits and pauses of tens of milliseconds lay flat on the axis, one over the other (a real serde run: a
      // 7.7 s p99 beside waits under 100 ms).
      charts.push(Object.assign({ kind: 'lag', title: `${target} wait for a handler thread (the JVM's stand-in for event-loop lag) and GC pauses` }, align([
        { label: 'JVM thread wait p99 (ms)', scale: 'ms', points: scaled(job.threadWaitP99Seconds, 1000) },
        { label: 'JVM thread wait max (ms)', scale: 'ms', points: scaled(job.threadWaitMaxSeconds, 1000) },
      ].concat(gcPause))));
    } else {
      notices.push(`${target} exports no event-loop lag series, nor a stand-in for one.`);
    }
    if (job.cpuCores || job.rssBytes) {
      // ELU on the cores' scale: a loop busy all the time keeps one core busy.
      const elu = job.eluRatio ? [{ label: 'server ELU (busy share)', scale: 'cores', points: scaled(job.eluRatio, 1) }] : [];
      // Beside it, the share of each second the loop's thread waited for a CPU something else held: the machine's part.
      const wait = job.cpuWaitRatio ? [{ label: 'loop waiting for a CPU (share)', scale: 'cores', points: scaled(job.cpuWaitRatio, 1) }] : [];
      // And the share of the machine's CPU that went to processes outside the lab (busy-machine.js): the neighbours'.
      const elsewhere = server.machine ? machineShares(server.machine).elsewhereShare : [];
      const machine = elsewhere.length ? [{ label: 'machine CPU elsewhere (share)', scale: 'cores', points: elsewhere }] : [];
      charts.push(Object.assign({ kind: 'resources', title: `${target} CPU, event-loop utilization, its wait for a CPU and RSS, and the machine's CPU outside the lab` }, align([
        { label: 'server CPU (cores)', scale: 'cores', points: scaled(job.cpuCores, 1) },
        { label: 'server RSS (MiB)', scale: 'MiB', points: scaled(job.rssBytes, 1 / 1048576) },
      ].concat(elu, wait, machine))));
    }
  }
  charts.push(Object.assign({ kind: 'client', title: 'client latency and requests per second' }, align([
    { label: 'client latency p50 (ms)', scale: 'ms', points: clientPoints(scenarioFile, 'latencyP50Ms') },
    clientP99,
    { label: 'client latency max (ms)', scale: 'ms', points: clientPoints(scenarioFile, 'latencyMaxMs') },
    { label: 'requests/s', scale: 'req/s', points: clientPoints(scenarioFile, 'requests') },
  ])));
  const range = rangeOf(scenarioFile);
  return { charts: charts.map((chart) => Object.assign(chart, { range })), serverNotice: notices.length ? notices.join(' ') : null };
}

module.exports = { chartsOf, align };
