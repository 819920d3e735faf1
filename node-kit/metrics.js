'use strict';
// The contract's metrics (CONTRACT.md), defined once for every Node service. prom-client is injected so that each
// service keeps its own pinned version (14 on Node 14, 15 on Node 24).
const { registerRuntimeMetrics, counterReadAtScrape } = require('./runtime-metrics');
const { registerCgroupThrottling } = require('./machine-metrics');

const METRIC = {
  runDuration: 'lab_run_duration_seconds',
  runs: 'lab_runs_total',
  httpDuration: 'http_request_duration_seconds',
  maxBlock: 'lab_run_max_block_seconds',
  bytes: 'lab_run_bytes_total',
  yields: 'lab_run_yields_total',
  // Why the loop stalls (runtime-metrics.js); the JVM exports the two GC names too (LabMetrics.kt).
  loopBusy: 'lab_event_loop_busy_seconds_total',
  gcPause: 'lab_gc_pause_seconds',
  gcPauseMax: 'lab_gc_pause_max_seconds',
  loopCpuWait: 'lab_event_loop_cpu_wait_seconds_total',
  // What keeping users' documents cost the process (document-store.js' work): the services' and the load driver's.
  documentChecks: 'lab_document_checks_total',
  documentParses: 'lab_document_parses_total',
  // What the machine did beside the lab (machine-metrics.js): each process's cgroup throttling, and the machine's CPU
  // by mode, CPUs, load and clock, which the load driver exports for all.
  cgroupThrottled: 'lab_cgroup_cpu_throttled_seconds_total',
  machineCpu: 'lab_machine_cpu_seconds_total',
  machineCpus: 'lab_machine_cpus',
  machineLoad1: 'lab_machine_load1',
  machineCpuFrequency: 'lab_machine_cpu_frequency_hertz',
};

// The JVM's stand-in for the lag (LabMetrics.kt writes them for the JVM): named here too for what reads them in
// JavaScript, the load driver and the dashboards' tests. The JVM exports METRIC.gcPause and gcPauseMax as well.
const JVM_METRIC = {
  threadWait: 'lab_http_thread_wait_seconds',
  threadWaitMax: 'lab_http_thread_wait_max_seconds',
};

// Runs span sub-millisecond transfers to multi-second serializations.
const RUN_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// From an idle loop's ~1 ms to a native call on a 40 MB document.
const BLOCK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
// From a 0.1 ms scavenge to a multi-second full collection of a large heap; the same on the JVM (LabMetrics.kt).
const GC_PAUSE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

// 1 ms instead of prom-client's 10 ms: the delay histogram records whole timer intervals, so an idle process reads
// about the resolution. See CONTRACT.md.
const EVENT_LOOP_MONITORING_PRECISION_MS = 1;

/**
 * How much the service watches itself, for the instrumentation-cost benchmark only (services/node-async/bench/
 * instrumentation-cost.js): LAB_RUNTIME_METRICS=off leaves out prom-client's default metrics and the ELU and GC
 * observers (the dashboards and the driver's server section then have nothing to read), LAB_EVENT_LOOP_PRECISION_MS
 * sets the loop-delay monitor's resolution (1 by default; prom-client's own default is 10), LAB_BLOCK_ATTRIBUTION=off
 * leaves out the split of each run's blocks into running and waiting (loop-kit/event-loop.js: a read of the thread's
 * clock at every 1 ms tick; eventLoop's maxBlockCpuMs, maxBlockWaitMs and maxOwnBlockMs are then null).
 */
function instrumentation(env = process.env) {
  const precision = Number(env.LAB_EVENT_LOOP_PRECISION_MS || EVENT_LOOP_MONITORING_PRECISION_MS);
  if (!Number.isInteger(precision) || precision < 1 || precision > 1000) throw new TypeError('LAB_EVENT_LOOP_PRECISION_MS must be an integer in [1, 1000]');
  const runtime = env.LAB_RUNTIME_METRICS || 'on';
  if (runtime !== 'on' && runtime !== 'off') throw new TypeError('LAB_RUNTIME_METRICS must be on or off');
  const attribution = env.LAB_BLOCK_ATTRIBUTION || 'on';
  if (attribution !== 'on' && attribution !== 'off') throw new TypeError('LAB_BLOCK_ATTRIBUTION must be on or off');
  return { runtimeMetrics: runtime === 'on', precisionMs: precision, blockAttribution: attribution === 'on' };
}

function createMetrics(promClient) {
  const registry = new promClient.Registry();
  const watch = instrumentation();
  if (watch.runtimeMetrics) {
    promClient.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: watch.precisionMs });
    registerRuntimeMetrics(promClient, registry, METRIC, GC_PAUSE_BUCKETS);
    registerCgroupThrottling(promClient, registry, METRIC);
  }
  return {
    registry,
    runDuration: new promClient.Histogram({
      name: METRIC.runDuration,
      help: 'Duration of the timed section of each validated run',
      labelNames: ['workload', 'approach', 'case'],
      buckets: RUN_BUCKETS,
      registers: [registry],
    }),
    runs: new promClient.Counter({
      name: METRIC.runs,
      help: 'Runs by outcome: ok, invalid (output differs from the reference), interrupted, error',
      labelNames: ['workload', 'approach', 'outcome'],
      registers: [registry],
    }),
    maxBlock: new promClient.Histogram({
      name: METRIC.maxBlock,
      help: 'Longest event-loop block during each run that reports one (eventLoop.maxBlockMs), whatever its outcome',
      labelNames: ['workload', 'approach'],
      buckets: BLOCK_BUCKETS,
      registers: [registry],
    }),
    bytes: new promClient.Counter({
      name: METRIC.bytes,
      help: 'Bytes of validated runs: the text produced (stringify) or parsed (parse)',
      labelNames: ['workload', 'approach'],
      registers: [registry],
    }),
    yields: new promClient.Counter({
      name: METRIC.yields,
      help: 'Turns given to the event loop by runs that report them',
      labelNames: ['workload', 'approach'],
      registers: [registry],
    }),
    httpDuration: new promClient.Histogram({
      name: METRIC.httpDuration,
      help: 'HTTP request duration by route pattern',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
  };
}

/**
 * The store's work ({checks, parses}, document-store.js) as two counters of registry, read when scraped. A process
 * keeps one store, so they count that process's work: each document at most one check and one parse.
 */
function registerDocumentWork(promClient, registry, work) {
  counterReadAtScrape(promClient, registry, METRIC.documentChecks, "Checks of a user document's whole text (UTF-8 read as it arrives aside): JSON's scan, CSV's parse", () => work.checks);
  counterReadAtScrape(promClient, registry, METRIC.documentParses, 'Parses of a user document into a value, to make the reference its runs are checked against', () => work.parses);
}

module.exports = { instrumentation, registerDocumentWork, METRIC, JVM_METRIC, createMetrics, EVENT_LOOP_MONITORING_PRECISION_MS, GC_PAUSE_BUCKETS };
