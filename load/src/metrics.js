'use strict';
const promClient = require('prom-client');

// Lets dashboards mark when each scenario loads a service.
const SCENARIO_ACTIVE = 'lab_load_scenario_active';
const SCENARIO_RUNS = 'lab_load_scenario_runs_total';

function createMetrics() {
  const registry = new promClient.Registry();
  promClient.collectDefaultMetrics({ register: registry });
  return {
    registry,
    scenarioActive: new promClient.Gauge({ name: SCENARIO_ACTIVE, help: '1 while the scenario runs, 0 after', labelNames: ['scenario', 'target'], registers: [registry] }),
    scenarioRuns: new promClient.Counter({ name: SCENARIO_RUNS, help: 'Completed scenario runs by verdict', labelNames: ['scenario', 'target', 'verdict'], registers: [registry] }),
  };
}

module.exports = { createMetrics, SCENARIO_ACTIVE };
