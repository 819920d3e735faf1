'use strict';
// The worker offload's metrics (services/node-async/README.md), beside node-kit's. Pool utilization is derived, not
// sampled: sum(rate(lab_offload_task_run_seconds_sum{route="optimized"})) / lab_offload_pool_size is the share of
// the pool's worker time spent running requests, whatever the scrape interval.
const METRIC = {
  runSeconds: 'lab_offload_task_run_seconds',
  waitSeconds: 'lab_offload_task_wait_seconds',
  tasks: 'lab_offload_tasks_total',
  queueLength: 'lab_offload_queue_length',
  workers: 'lab_offload_workers',
  poolSize: 'lab_offload_pool_size',
  workerHeap: 'lab_offload_worker_heap_bytes',
};

// From a small request's ~1 ms to a capped one's ~1 s of CPU, and waits up to the task timeout.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** pool: {queueSize, threads, size, workerHeaps()} read at every scrape. */
function createOffloadMetrics(promClient, registry, pool) {
  const registers = [registry];
  new promClient.Gauge({
    name: METRIC.queueLength,
    help: 'Optimized-route tasks waiting for a worker',
    registers,
    collect() {
      this.set(pool.queueSize);
    },
  });
  new promClient.Gauge({
    name: METRIC.workers,
    help: 'Pool workers alive (dips while a crashed worker is replaced)',
    registers,
    collect() {
      this.set(pool.threads.length);
    },
  });
  new promClient.Gauge({
    name: METRIC.poolSize,
    help: 'Workers the pool is configured to keep (OFFLOAD_WORKERS)',
    registers,
    collect() {
      this.set(pool.size);
    },
  });
  // Each worker is an isolate of its own, with a heap that nodejs_heap_* (the main thread's) does not count; without
  // this, memory the workers keep shows only as the process's RSS.
  new promClient.Gauge({
    name: METRIC.workerHeap,
    help: 'V8 heap of the pool workers, summed over the live ones: size (total) and in use (used)',
    labelNames: ['kind'],
    registers,
    async collect() {
      const heaps = await pool.workerHeaps();
      this.set({ kind: 'total' }, heaps.reduce((sum, heap) => sum + heap.total_heap_size, 0));
      this.set({ kind: 'used' }, heaps.reduce((sum, heap) => sum + heap.used_heap_size, 0));
    },
  });
  return {
    runSeconds: new promClient.Histogram({
      name: METRIC.runSeconds,
      help: 'CPU work of each completed process-data request: in a worker (optimized) or on the main thread (unoptimized)',
      labelNames: ['route'],
      buckets: BUCKETS,
      registers,
    }),
    waitSeconds: new promClient.Histogram({
      name: METRIC.waitSeconds,
      help: 'Time an optimized-route task waited in the queue before a worker started it',
      buckets: BUCKETS,
      registers,
    }),
    tasks: new promClient.Counter({
      name: METRIC.tasks,
      help: 'process-data requests by route and outcome: ok, queue-full, would-time-out, timeout, client-gone, interrupted, failed',
      labelNames: ['route', 'outcome'],
      registers,
    }),
  };
}

module.exports = { createOffloadMetrics, METRIC };
