'use strict';
// The try suite (suites/try.json, "coverage": "stored document"): a user's document, stored with PUT /documents,
// through every approach of the workloads of its kind (a JSON document: `stringify`, `parse`, wasm-runner's `transfer`
// and the JVM's `serde`; a CSV one: `csv`) of every service that took it (where a workload's /info entry has
// `documentApproaches`, only those), each under load with the probe beside it and every answer validated against the
// reference the service took at upload (native for JSON, the reference parser's rows for CSV). Generated from each
// service's /info as the smoke suite's coverage is (coverage.js), with the suite's `documentScenarios` settings. What
// the run tells its user is try-choice.js'.
//
// Each approach runs in rounds (documentScenarios.rounds, below). suites/try.json's 3 rounds of 1 s give an approach 3
// s under load where one scenario of 4 s gave it 4; with the second or so each scenario waits for Prometheus' scrape
// after it (server-series.js), a run takes about 6 s an approach where it took about 5. Two rounds of 2 s would
// measure longer but could not outvote one odd round. On a large document, where one run outlasts the window and a
// scenario lasts until its first answers (scenario.js), each round costs those runs again: 3 rounds, about 3 times.
const { PROBE } = require('../suite/coverage');
const { runScenarioOf } = require('../scenario/run-request');

const DOCUMENT_COVERAGE = 'stored document';
const WORKLOADS = { json: ['stringify', 'parse', 'transfer', 'serde'], csv: ['csv'] };
// The service's own deadline on one run (its timeoutMs parameter) is the client's timeout less this: an approach that
// can stop is interrupted there (a failed run, said so) before the client gives up on it, and stops using the CPU.
const DEADLINE_MARGIN_MS = 2000;
// The most rounds a run may ask for (documentScenarios.rounds, POST /runs' rounds): each is a scenario per approach.
const MAX_ROUNDS = 10;

/** The scenario name of round (1-based) of target, workload and approach: round 1 keeps the plain name. */
const roundName = (name, workload, approach, round) => `${name}-${workload}-${approach}${round > 1 ? `-r${round}` : ''}`;

/**
 * The scenarios of one service (name, its /info) for the document {sha256, kind ('json' when not given)}, with
 * settings (documentScenarios). Each workload's approaches run in settings.rounds interleaved rounds: round 1 runs
 * every approach once, then round 2 runs them again, and so on, so that a slow drift of the machine or a neighbour's
 * burst falls on every approach alike instead of on whichever ran then (try-choice.js compares the rounds). A
 * workload's rounds are contiguous and a service's workloads too: a service warms up once, not once per round.
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
    const approaches = entry.documentApproaches || entry.approaches;
    for (let round = 1; round <= settings.rounds; round++) {
      for (const approach of approaches) {
        scenarios.push(runScenarioOf({ workload, approach, params }, {
          name: roundName(name, workload, approach, round),
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
  }
  return scenarios;
}

/**
 * The suite with the document's scenarios ({sha256, kind}): for every target that stored it (handOff: {name:
 * {stored}}) and whose /info (infos) has the workloads. overrides: durationSeconds (0 or none: the suite's) shortens or
 * lengthens each scenario, rounds (0 or none: the suite's) sets how many times each approach runs.
 */
function withDocument(suite, infos, handOff, document, { durationSeconds = 0, rounds = 0 } = {}) {
  const settings = Object.assign({}, suite.documentScenarios, durationSeconds > 0 ? { durationSeconds } : {}, rounds > 0 ? { rounds } : {});
  const stored = Object.keys(handOff).filter((name) => handOff[name].stored && infos[name]);
  return Object.assign({}, suite, { scenarios: stored.flatMap((name) => documentScenarios(name, infos[name], document, settings)).concat(suite.scenarios) });
}

module.exports = { DOCUMENT_COVERAGE, WORKLOADS, MAX_ROUNDS, documentScenarios, withDocument };
