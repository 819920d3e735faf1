'use strict';
// Suites are data files in ../suites: a list of scenarios, checked here once so that a typo fails at load time with
// the scenario and field named, not halfway through a run.
const fs = require('node:fs');
const path = require('node:path');
const { COVERAGE } = require('./coverage');
const { DOCUMENT_COVERAGE, MAX_ROUNDS } = require('../try/try-suite');
const { checkThresholds } = require('../scenario/thresholds');
const { pathOf, runProblem } = require('../scenario/run-request');

const SUITES_DIR = path.join(__dirname, '..', '..', 'suites');

// Every load is bounded in time AND count, whatever a suite file says.
const LIMITS = { connections: 200, durationSeconds: 120, maxRequests: 1000000 };
const METHODS = ['GET', 'POST'];
// An open loop's schedule (open-loop.js): one timer a millisecond issues what is due, so beyond a few thousand a second
// the schedule itself is the bottleneck.
const MAX_ARRIVAL_RATE = 5000;
// The probe beside a scenario is light by construction: one GET at a low fixed rate (probe.js).
// `target`: another of the driver's targets to probe instead of the scenario's (an attached service's agent, which
// answers on the service's own event loop where the service has no cheap route of its own).
const PROBE_FIELDS = ['path', 'ratePerSecond', 'target'];
const PROBE_MAX_RATE = 200;
// Every field a suite or scenario may have: a misspelt one (say "treshold") is an error, not a silent default.
// `attach`: what make attach generated the suite for ({url, method, agent, blockMs}: attach/attach-suite.js), kept in
// run.json and read by the run's verdict (attach/attach-verdict.js).
const SUITE_FIELDS = ['description', 'coverage', 'documentScenarios', 'thresholds', 'thresholdsByApproach', 'profile', 'attach', 'scenarios'];
// A suite of a user's document (try-suite.js) says how each generated scenario runs; timeoutSeconds bounds one run,
// rounds how many times each approach runs.
const DOCUMENT_SCENARIO_LIMITS = Object.assign({ timeoutSeconds: 600 }, LIMITS, { rounds: MAX_ROUNDS });
const SCENARIO_FIELDS = ['name', 'target', 'method', 'run', 'path', 'headers', 'body', 'bodyFrom', 'connections', 'durationSeconds', 'warmupSeconds', 'arrivalRate', 'arrivalShareOf', 'maxRequests', 'timeoutSeconds', 'expect', 'probe', 'thresholds'];
// An open loop whose rate is a share of what an earlier closed loop of the same run answered a second
// (run/arrival-share.js): `make attach` loads a service at fractions of its saturation, unknown before the run.
const ARRIVAL_SHARE_FIELDS = ['scenario', 'share'];
// A warm-up before the measured window (scenario.js): bounded like the window itself.

function suiteNames(dir = SUITES_DIR) {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
}

function check(condition, where, message) {
  if (!condition) throw new Error(`${where}: ${message}`);
}

function checkFields(value, fields, where) {
  const unknown = Object.keys(value).filter((k) => !fields.includes(k));
  check(unknown.length === 0, where, `unknown field ${unknown.join(', ')}; the fields are ${fields.join(', ')}`);
}

function checkScenario(scenario, where, targets) {
  checkFields(scenario, SCENARIO_FIELDS, where);
  check(typeof scenario.name === 'string' && /^[a-z0-9-]+$/.test(scenario.name), where, 'name must be lowercase letters, digits and dashes');
  check(scenario.target in targets, where, `target must be one of ${Object.keys(targets).join(', ')}`);
  if (scenario.run !== undefined) {
    const problem = runProblem(scenario.run);
    check(problem === null, where, problem);
    check(scenario.path === pathOf(scenario.run), where, 'a scenario of a run has no path of its own: the path is the run\'s');
  } else {
    check(typeof scenario.path === 'string' && scenario.path.startsWith('/'), where, 'path must start with /');
    check(!scenario.path.startsWith('/run/'), where, 'a workload\'s run is written as run: {"workload", "approach", "params"}, not as a path');
  }
  check(METHODS.includes(scenario.method || 'GET'), where, `method must be one of ${METHODS.join(', ')}`);
  for (const [field, max] of Object.entries(LIMITS)) {
    const value = scenario[field];
    check(Number.isInteger(value) && value >= 1 && value <= max, where, `${field} must be an integer in [1, ${max}]`);
  }
  if (scenario.warmupSeconds !== undefined) {
    const w = scenario.warmupSeconds;
    check(Number.isInteger(w) && w >= 0 && w <= LIMITS.durationSeconds, where, `warmupSeconds must be an integer in [0, ${LIMITS.durationSeconds}]`);
  }
  if (scenario.arrivalRate !== undefined) {
    const r = scenario.arrivalRate;
    check(Number.isInteger(r) && r >= 1 && r <= MAX_ARRIVAL_RATE, where, `arrivalRate must be an integer in [1, ${MAX_ARRIVAL_RATE}] (requests a second, an open loop)`);
  }
  check(['validated', 'status'].includes(scenario.expect), where, 'expect must be "validated" (an answer with validated: true) or "status" (2xx only)');
  if (scenario.bodyFrom !== undefined) {
    check(typeof scenario.bodyFrom === 'string' && scenario.bodyFrom.startsWith('/'), where, 'bodyFrom must be a path on the target, starting with /');
    check(scenario.body === undefined, where, 'give body or bodyFrom, not both');
  }
  if (scenario.arrivalShareOf !== undefined) {
    const of = scenario.arrivalShareOf;
    check(of !== null && typeof of === 'object' && !Array.isArray(of), where, 'arrivalShareOf must be an object like {"scenario": "<an earlier closed loop, or a list of them>", "share": 0.5}');
    checkFields(of, ARRIVAL_SHARE_FIELDS, `${where}, arrivalShareOf`);
    check(scenario.arrivalRate === undefined, where, 'give arrivalRate or arrivalShareOf, not both');
    check(typeof of.share === 'number' && of.share > 0 && of.share <= 2, where, 'arrivalShareOf.share must be a number in (0, 2]');
  }
  if (scenario.probe !== undefined) checkProbe(scenario.probe, where, targets);
  if (scenario.thresholds !== undefined) checkThresholds(scenario.thresholds, where);
}

function checkProbe(probe, where, targets) {
  check(probe !== null && typeof probe === 'object' && !Array.isArray(probe), where, 'probe must be an object like {"path": "/healthz", "ratePerSecond": 20}');
  const unknown = Object.keys(probe).filter((k) => !PROBE_FIELDS.includes(k));
  check(unknown.length === 0, where, `probe has unknown field ${unknown.join(', ')}; its fields are ${PROBE_FIELDS.join(', ')}`);
  check(typeof probe.path === 'string' && probe.path.startsWith('/'), where, 'probe.path must start with / (normally /healthz)');
  const rate = probe.ratePerSecond;
  check(Number.isInteger(rate) && rate >= 1 && rate <= PROBE_MAX_RATE, where, `probe.ratePerSecond must be an integer in [1, ${PROBE_MAX_RATE}]`);
  check(probe.target === undefined || probe.target in targets, where, `probe.target must be one of ${Object.keys(targets).join(', ')}`);
}

/** documentScenarios: given exactly when the suite's coverage is a stored document, every setting in its bounds. */
function checkDocumentScenarios(suite, where) {
  const settings = suite.documentScenarios;
  if (suite.coverage !== DOCUMENT_COVERAGE) {
    check(settings === undefined, where, `documentScenarios is for coverage "${DOCUMENT_COVERAGE}" only`);
    return;
  }
  check(settings !== null && typeof settings === 'object' && !Array.isArray(settings), where, `documentScenarios must be an object: {${Object.keys(DOCUMENT_SCENARIO_LIMITS).join(', ')}}`);
  checkFields(settings, Object.keys(DOCUMENT_SCENARIO_LIMITS), `${where}, documentScenarios`);
  for (const [field, max] of Object.entries(DOCUMENT_SCENARIO_LIMITS)) {
    const value = settings[field];
    check(Number.isInteger(value) && value >= 1 && value <= max, `${where}, documentScenarios`, `${field} must be an integer in [1, ${max}]`);
  }
}

/** Checks every scenario of a suite, and that no two share a name. */
function checkScenarios(name, scenarios, targets) {
  const seen = new Set();
  scenarios.forEach((scenario, i) => {
    const where = `suite ${name}, scenario ${i} (${scenario.name})`;
    checkScenario(scenario, where, targets);
    check(!seen.has(scenario.name), where, 'duplicate name');
    if (scenario.arrivalShareOf !== undefined) {
      const names = [].concat(scenario.arrivalShareOf.scenario);
      const closedEarlier = (n) => scenarios.some((s) => s.name === n && seen.has(n) && !s.arrivalRate && !s.arrivalShareOf);
      check(names.length > 0 && names.every(closedEarlier), where, 'arrivalShareOf.scenario must name a closed loop earlier in the suite (or a list of them: the most any answered)');
    }
    seen.add(scenario.name);
  });
}

/**
 * Reads and checks suite `name` from dir against the known targets. Returns {name, description, coverage, thresholds,
 * thresholdsByApproach, scenarios} (thresholds.js: the suite's defaults, by approach, under each scenario's): coverage "every approach" asks for a scenario per approach of every service, generated when the suite
 * runs (coverage.js) and put before the suite's own scenarios, which may then be none.
 */
function loadSuite(name, targets, dir = SUITES_DIR) {
  const known = suiteNames(dir);
  if (!known.includes(name)) throw new Error(`no suite "${name}"; suites: ${known.join(', ')}`);
  return checkSuite(name, JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')), targets);
}

/** A suite's data (a file's, or one made in memory: POST /attach's) checked as loadSuite checks a file's; loadSuite's answer. */
function checkSuite(name, suite, targets) {
  checkFields(suite, SUITE_FIELDS, `suite ${name}`);
  check(suite.coverage === undefined || suite.coverage === COVERAGE || suite.coverage === DOCUMENT_COVERAGE, `suite ${name}`, `coverage must be "${COVERAGE}" or "${DOCUMENT_COVERAGE}" when given`);
  checkDocumentScenarios(suite, `suite ${name}`);
  check(suite.attach === undefined || (suite.attach !== null && typeof suite.attach === 'object' && typeof suite.attach.url === 'string'), `suite ${name}`, 'attach must be an object with the attached url (attach/attach-suite.js writes it)');
  check(suite.profile === undefined || typeof suite.profile === 'boolean', `suite ${name}`, 'profile must be true or false (a CPU profile of each scenario\'s target, profile/take-profile.js)');
  check(Array.isArray(suite.scenarios) && (suite.scenarios.length > 0 || suite.coverage !== undefined), `suite ${name}`, 'scenarios must be a non-empty list');
  if (suite.thresholds !== undefined) checkThresholds(suite.thresholds, `suite ${name}`);
  const byApproach = suite.thresholdsByApproach;
  if (byApproach !== undefined) {
    check(byApproach !== null && typeof byApproach === 'object' && !Array.isArray(byApproach), `suite ${name}`, 'thresholdsByApproach must be an object: {approach: thresholds}');
    for (const [approach, thresholds] of Object.entries(byApproach)) checkThresholds(thresholds, `suite ${name}, thresholdsByApproach.${approach}`);
  }
  // A run's path is derived from it once, here; a suite file never writes it (checkScenario says so if it does).
  const scenarios = suite.scenarios.map((s) => (s && s.run !== undefined && s.path === undefined && runProblem(s.run) === null ? Object.assign({}, s, { path: pathOf(s.run) }) : s));
  checkScenarios(name, scenarios, targets);
  return {
    name,
    description: suite.description || '',
    coverage: suite.coverage,
    thresholds: suite.thresholds || {},
    thresholdsByApproach: byApproach || {},
    documentScenarios: suite.documentScenarios,
    profile: suite.profile === true,
    attach: suite.attach,
    scenarios,
  };
}

module.exports = { loadSuite, checkSuite, checkScenarios, suiteNames, LIMITS, DOCUMENT_SCENARIO_LIMITS, MAX_ARRIVAL_RATE, SUITES_DIR };
