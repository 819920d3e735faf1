'use strict';
// Every metric the agent exports, each name written once, units in the names (base units only). Two families of the
// same readings: the lab's (what the load driver's Prometheus queries and the dashboards read, as node-kit/metrics.js
// and prom-client's default metrics name them in the services) and OpenTelemetry's semantic conventions for Node.js
// and V8 (semconv runtime/nodejs-metrics and runtime/v8js-metrics, "Development" status), written as OpenTelemetry's
// Prometheus exporter writes them: dots to underscores, the unit as a suffix (s -> _seconds, By -> _bytes, 1 on a
// gauge -> _ratio), attributes as labels with dots to underscores. Node 14 syntax.

const LAB = {
  // perf_hooks.monitorEventLoopDelay's figures over the interval since the last scrape, as prom-client names them.
  lagMin: 'nodejs_eventloop_lag_min_seconds',
  lagMax: 'nodejs_eventloop_lag_max_seconds',
  lagMean: 'nodejs_eventloop_lag_mean_seconds',
  lagStddev: 'nodejs_eventloop_lag_stddev_seconds',
  lagP50: 'nodejs_eventloop_lag_p50_seconds',
  lagP90: 'nodejs_eventloop_lag_p90_seconds',
  lagP99: 'nodejs_eventloop_lag_p99_seconds',
  // node-kit/metrics.js' METRIC names.
  loopBusy: 'lab_event_loop_busy_seconds_total',
  gcPause: 'lab_gc_pause_seconds',
  gcPauseMax: 'lab_gc_pause_max_seconds',
  loopCpuWait: 'lab_event_loop_cpu_wait_seconds_total',
  cgroupThrottled: 'lab_cgroup_cpu_throttled_seconds_total',
  // prom-client's default metrics' names.
  cpu: 'process_cpu_seconds_total',
  cpuUser: 'process_cpu_user_seconds_total',
  cpuSystem: 'process_cpu_system_seconds_total',
  rss: 'process_resident_memory_bytes',
  startTime: 'process_start_time_seconds',
  heapUsed: 'nodejs_heap_size_used_bytes',
  heapTotal: 'nodejs_heap_size_total_bytes',
  nodeVersion: 'nodejs_version_info',
  // The agent's own.
  agentInfo: 'lab_agent_info',
  workerBusy: 'lab_worker_event_loop_busy_seconds_total',
  workers: 'lab_workers',
};

const OTEL = {
  delayMin: 'nodejs_eventloop_delay_min_seconds',
  delayMax: 'nodejs_eventloop_delay_max_seconds',
  delayMean: 'nodejs_eventloop_delay_mean_seconds',
  delayStddev: 'nodejs_eventloop_delay_stddev_seconds',
  delayP50: 'nodejs_eventloop_delay_p50_seconds',
  delayP90: 'nodejs_eventloop_delay_p90_seconds',
  delayP99: 'nodejs_eventloop_delay_p99_seconds',
  // nodejs.eventloop.utilization, a gauge of unit 1.
  utilization: 'nodejs_eventloop_utilization_ratio',
  // v8js.gc.duration, a histogram in s with attribute v8js.gc.type.
  gcDuration: 'v8js_gc_duration_seconds',
  // v8js.memory.heap.used and v8js.memory.heap.limit, UpDownCounters in By with attribute v8js.heap.space.name (a
  // non-monotonic sum is a Prometheus gauge). Newer semconv releases deprecate limit for v8js.memory.heap.space.size
  // (the same value, space_size); the agent keeps the name the lab's issue asked for.
  heapUsed: 'v8js_memory_heap_used_bytes',
  heapLimit: 'v8js_memory_heap_limit_bytes',
};

const LABEL = {
  gcKind: 'kind',
  otelGcType: 'v8js_gc_type',
  otelHeapSpace: 'v8js_heap_space_name',
  threadId: 'thread_id',
};

// From a 0.1 ms scavenge to a multi-second full collection of a large heap: node-kit/metrics.js' GC_PAUSE_BUCKETS,
// the same on the JVM (LabMetrics.kt).
const GC_PAUSE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
// The semantic conventions' advice for v8js.gc.duration (ExplicitBucketBoundaries [0.01, 0.1, 1, 10]): coarse, every
// scavenge in the first bucket, kept so that OpenTelemetry dashboards read what they expect; the lab reads gcPause.
const OTEL_GC_BUCKETS = [0.01, 0.1, 1, 10];

module.exports = { LAB, OTEL, LABEL, GC_PAUSE_BUCKETS, OTEL_GC_BUCKETS };
