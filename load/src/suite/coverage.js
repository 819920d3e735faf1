'use strict';
// A suite's coverage, generated: for a suite that asks for it ("coverage": "every approach"), a scenario for every
// approach of every workload of every service, and for every value of a workload's `op` parameter, built from the
// service's /info and the smoke settings of its manifest (lab-topology/service.schema.json, "smoke"). So a new
// approach, workload or service is covered without anyone listing it; hand-written scenarios come after these.

const { runScenarioOf } = require('../scenario/run-request');

const COVERAGE = 'every approach';
const PROBE = { path: '/healthz', ratePerSecond: 20 };
const SETTINGS = ['connections', 'durationSeconds', 'maxRequests'];

/** The smoke settings for one scenario: the service's, then its workload's, then its approach's. */
function settingsOf(smoke, workload, approach) {
  const layers = [smoke, (smoke.workloads || {})[workload] || {}, (smoke.approaches || {})[approach] || {}];
  const settings = {};
  for (const layer of layers) for (const key of SETTINGS) if (layer[key] !== undefined) settings[key] = layer[key];
  return settings;
}

/** The scenarios covering one service: manifest (with its smoke settings) and info (its /info). */
function coverageOf(manifest, info) {
  const scenarios = [];
  for (const [workload, description] of Object.entries(info.workloads)) {
    const params = ((manifest.smoke.workloads || {})[workload] || {}).params || {};
    const op = description.params.op;
    for (const approach of description.approaches) {
      for (const value of op ? op.values : [null]) {
        const ownOp = value !== null && value !== op.default;
        scenarios.push(runScenarioOf({ workload, approach, params: Object.assign(ownOp ? { op: value } : {}, params) }, Object.assign({
          name: `${manifest.name}-${workload}-${approach}${ownOp ? `-${value}` : ''}`,
          target: manifest.name,
          expect: 'validated',
          probe: PROBE,
        }, settingsOf(manifest.smoke, workload, approach))));
      }
    }
  }
  return scenarios;
}

/**
 * The suite with its coverage: generated scenarios for every manifest with smoke settings whose service is a target
 * (infos: {name: /info}), then the suite's own. A suite without "coverage" is returned as it is.
 */
function withCoverage(suite, manifests, infos) {
  if (suite.coverage !== COVERAGE) return suite;
  const covered = manifests.filter((m) => m.smoke && infos[m.name]);
  return Object.assign({}, suite, { scenarios: covered.flatMap((m) => coverageOf(m, infos[m.name])).concat(suite.scenarios) });
}

/** The services a suite's coverage needs, among the targets. */
const coverageTargets = (suite, manifests, targets) => (suite.coverage === COVERAGE ? manifests.filter((m) => m.smoke && targets[m.name]).map((m) => m.name) : []);

module.exports = { COVERAGE, PROBE, coverageOf, withCoverage, coverageTargets };
