'use strict';
// The try suite (suites/try.json, "coverage": "stored document"): a user's document, stored with PUT /documents,
// through every approach of the workloads of its kind (a JSON document: `stringify`, `parse`, wasm-runner's `transfer`
// and the JVM's `serde`; a CSV one: `csv`) of every service that took it (where a workload's /info entry has
// `documentApproaches`, only those), each under load with the probe beside it and every answer validated against the
// reference the service took at upload (native for JSON, the reference parser's rows for CSV). Generated from each
// service's /info as the smoke suite's coverage is (coverage.js), with the suite's `documentScenarios` settings. What
// the run tells its user is try-choice.js'.
const { PROBE } = require('../suite/coverage');
const { runScenarioOf } = require('../scenario/run-request');

const DOCUMENT_COVERAGE = 'stored document';
const WORKLOADS = { json: ['stringify', 'parse', 'transfer', 'serde'], csv: ['csv'] };
// The service's own deadline on one run (its timeoutMs parameter) is the client's timeout less this: an approach that
// can stop is interrupted there (a failed run, said so) before the client gives up on it, and stops using the CPU.
const DEADLINE_MARGIN_MS = 2000;

/**
 * The scenarios of one service (name, its /info) for the document {sha256, kind ('json' when not given)}, with
 * settings (documentScenarios).
 */
function documentScenarios(name, info, { sha256, kind = 'json' }, settings) {
  const timeoutMs = Math.max(1000, settings.timeoutSeconds * 1000 - DEADLINE_MARGIN_MS);
  const scenarios = [];
  if (!WORKLOADS[kind]) throw new Error(`a document of kind ${kind}: the try suite runs ${Object.keys(WORKLOADS).join(' and ')}`);
  for (const workload of WORKLOADS[kind].filter((w) => info.workloads && info.workloads[w])) {
    const entry = info.workloads[workload];
    // A workload with a deadline of its own gets one (transfer and the JVM's serde have none: their client's timeout
    // ends them), and one op on the document a request, as one stringify is: transfer's default of 100 round trips a
    // request took 37 s on a 21 MB document by its fastest approach, past the client's timeout by its slower ones.
    const params = Object.assign({ document: sha256 }, entry.params && entry.params.timeoutMs ? { timeoutMs } : {}, entry.params && entry.params.iterations ? { iterations: 1 } : {});
    // A workload whose approaches do not all take a user's document lists those that do.
    for (const approach of entry.documentApproaches || entry.approaches) {
      scenarios.push(runScenarioOf({ workload, approach, params }, {
        name: `${name}-${workload}-${approach}`,
        target: name,
        expect: 'validated',
        probe: PROBE,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        maxRequests: settings.maxRequests,
        timeoutSeconds: settings.timeoutSeconds,
      }));
    }
  }
  return scenarios;
}

/**
 * The suite with the document's scenarios ({sha256, kind}): for every target that stored it (handOff: {name:
 * {stored}}) and whose /info (infos) has the workloads. durationSeconds (0: the suite's) shortens or lengthens each
 * scenario.
 */
function withDocument(suite, infos, handOff, document, durationSeconds) {
  const settings = Object.assign({}, suite.documentScenarios, durationSeconds > 0 ? { durationSeconds } : {});
  const stored = Object.keys(handOff).filter((name) => handOff[name].stored && infos[name]);
  return Object.assign({}, suite, { scenarios: stored.flatMap((name) => documentScenarios(name, infos[name], document, settings)).concat(suite.scenarios) });
}

module.exports = { DOCUMENT_COVERAGE, WORKLOADS, documentScenarios, withDocument };
