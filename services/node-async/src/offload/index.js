'use strict';
// The worker-offload experiment in node-async: the worker pool, its routes and metrics, configured from the environment
// (README).
const { envInteger } = require('@lab/node-kit');
const { availableCpus } = require('@lab/node-kit/cpus');
const { createOffloadPool } = require('./pool');
const { createMainThreadQueue } = require('./main-thread-queue');
const { createOffloadMetrics } = require('./offload-metrics');
const { offloadRoutes, ROUTE } = require('./routes');

function offloadConfig() {
  const config = {
    workers: envInteger('OFFLOAD_WORKERS', availableCpus()),
    // 100 connections (the original's load) fit with room to spare; each queued task holds one checked body (<= 64
    // KiB).
    maxQueue: envInteger('OFFLOAD_MAX_QUEUE', 256),
    // Below autocannon's and compose's 10 s, so a client hears 503 instead of timing out.
    taskTimeoutMs: envInteger('OFFLOAD_TASK_TIMEOUT_MS', 8000),
    // The unoptimized route's waiting tasks: the original's 100 connections, one request each, fit; past them, a client
    // would wait out more than 100 requests' work of the main thread.
    unoptimizedMaxQueue: envInteger('UNOPTIMIZED_MAX_QUEUE', 128),
  };
  if (config.workers < 1) throw new TypeError('OFFLOAD_WORKERS must be at least 1');
  if (config.taskTimeoutMs < 1) throw new TypeError('OFFLOAD_TASK_TIMEOUT_MS must be at least 1');
  if (config.unoptimizedMaxQueue < 1) throw new TypeError('UNOPTIMIZED_MAX_QUEUE must be at least 1');
  return config;
}

/**
 * {promClient, config (overrides the environment's)} -> {pool, info, routes(metrics), close()}: the parts
 * node-kit's createService takes.
 */
function workerOffload({ promClient, config }) {
  const settings = Object.assign(offloadConfig(), config);
  const pool = createOffloadPool(settings);
  const mainThread = createMainThreadQueue({ maxQueue: settings.unoptimizedMaxQueue });
  return {
    pool,
    info: { offload: Object.assign({ routes: ROUTE }, settings) },
    routes: (metrics) => offloadRoutes({ pool, mainThread, metrics: createOffloadMetrics(promClient, metrics.registry, pool) }),
    close: () => pool.close(),
  };
}

module.exports = { workerOffload, ROUTE };
