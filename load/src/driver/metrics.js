'use strict';
const promClient = require('prom-client');
const { METRIC } = require('@lab/node-kit/metrics');
const { registerMachineMetrics, registerCgroupThrottling } = require('@lab/node-kit/machine-metrics');

// Lets dashboards mark when each scenario loads a service.
const SCENARIO_ACTIVE = 'lab_load_scenario_active';
const SCENARIO_RUNS = 'lab_load_scenario_runs_total';
// What a client of the loaded service feels: every probe response, observed as it arrives (probe.js).
const PROBE_LATENCY = 'lab_load_probe_latency_seconds';
const PROBE_LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// The scenario's own responses, observed the same way and in the same buckets, so that the live page (src/live/) and
// dashboards can put the probe's latency beside the scenario's from Prometheus alone.
const REQUEST_LATENCY = 'lab_load_request_latency_seconds';

function createMetrics() {
  const registry = new promClient.Registry();
  promClient.collectDefaultMetrics({ register: registry });
  // The machine beside the lab, exported by the driver for all (load/src/machine/ reads it back from Prometheus).
  registerMachineMetrics(promClient, registry, METRIC);
  registerCgroupThrottling(promClient, registry, METRIC);
  return {
    registry,
    scenarioActive: new promClient.Gauge({ name: SCENARIO_ACTIVE, help: '1 while the scenario runs, 0 after', labelNames: ['scenario', 'target'], registers: [registry] }),
    scenarioRuns: new promClient.Counter({ name: SCENARIO_RUNS, help: 'Scenario runs by verdict: passed, failed, or stopped before their end', labelNames: ['scenario', 'target', 'verdict'], registers: [registry] }),
    probeLatency: new promClient.Histogram({
      name: PROBE_LATENCY,
      help: 'Latency of each response to the light probe (GET probe.path) sent to the target while the heavy scenario runs',
      labelNames: ['scenario', 'target'],
      buckets: PROBE_LATENCY_BUCKETS,
      registers: [registry],
    }),
    requestLatency: new promClient.Histogram({
      name: REQUEST_LATENCY,
      help: "Latency of each response to the scenario's own requests, observed as it arrives",
      labelNames: ['scenario', 'target'],
      buckets: PROBE_LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

module.exports = { createMetrics, SCENARIO_ACTIVE, PROBE_LATENCY, REQUEST_LATENCY, PROBE_LATENCY_BUCKETS };
