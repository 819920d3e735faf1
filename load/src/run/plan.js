'use strict';
// Planning one pass of a suite: the run options checked, the suite narrowed to `targets`, a try run's document handed
// to the targets again (try/documents.js) and the targets those that stored it, then, once the targets have answered,
// the scenarios generated from what they run now (their /info: suite/coverage.js, try/try-suite.js).
const { checkScenarios } = require('../suite/suites');
const { withCoverage, coverageTargets } = require('../suite/coverage');
const { readManifests } = require('@lab/lab-topology/manifests');
const { describeTargets } = require('../suite/targets');
const { machine } = require('./results');
const { DOCUMENT_COVERAGE, withDocument } = require('../try/try-suite');
const { DEFAULT_BLOCK_MS } = require('../try/try-choice');
const { badRequest } = require('@lab/node-kit/errors');

/**
 * The options of a run of suite (loaded): a try suite needs the document (a sha256 the driver holds: documents.hold
 * throws its 404 otherwise) and takes blockMs, durationSeconds and rounds; any other suite takes none of them. Throws the
 * 400.
 */
function checkRunOptions(suite, options, driverTargets) {
  if (options.targets) {
    const unknown = options.targets.find((name) => !driverTargets[name]);
    if (unknown) throw badRequest(`targets: ${unknown} is not one of this driver's targets`, { parameter: 'targets', allowed: Object.keys(driverTargets) });
    if (suite.coverage === undefined && !suite.scenarios.some((s) => options.targets.includes(s.target))) {
      throw badRequest(`suite ${suite.name} has no scenario for ${options.targets.join(', ')}`, { parameter: 'targets', allowed: [...new Set(suite.scenarios.map((s) => s.target))] });
    }
  }
  const given = ['document', 'blockMs', 'durationSeconds', 'rounds'].filter((name) => options[name] !== undefined);
  if (suite.coverage !== DOCUMENT_COVERAGE) {
    if (given.length > 0) throw badRequest(`${given[0]} is for a suite of a stored document (try) only`, { parameter: given[0], allowed: [] });
    return;
  }
  if (!options.document) throw badRequest(`suite ${suite.name} runs a stored document: give document=<sha256> (PUT /documents answers it)`, { parameter: 'document', allowed: { pattern: '[0-9a-f]{64}' } });
}

/** The suite with only the scenarios of `targets` (all of them when none are given). */
const onlyTargets = (suite, targets) => (targets ? Object.assign({}, suite, { scenarios: suite.scenarios.filter((s) => targets.includes(s.target)) }) : suite);
/** The driver's targets ({name: url}) narrowed to `targets` when given. */
const onlyOf = (all, targets) => (targets ? Object.fromEntries(Object.entries(all).filter(([name]) => targets.includes(name))) : all);

/** The targets a scenario needs: its own, and its probe's where the probe asks another (an attached service's agent). */
const targetsOfScenario = (scenario) => [scenario.target].concat(scenario.probe && scenario.probe.target ? [scenario.probe.target] : []);

/** What the run's header says of the lab itself: its commit and images, where the environment tells them. */
function labOf(env = process.env) {
  const images = {};
  for (const entry of (env.LAB_IMAGES || '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const at = entry.indexOf('=');
    if (at > 0) images[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return { commit: env.LAB_GIT_COMMIT || null, images };
}

/**
 * The first half of a pass of the suite load(targets) reads (a file's, loadSuite; POST /attach's, checkSuite), before
 * its targets are waited for: {loaded (the suite narrowed), targets ({name: url} the
 * pass needs), handOff (a try run's: {name: result}, else null), meta (run.json's header so far)}. Throws when no
 * target stored a try run's document.
 */
async function planPass({ config, documents }, load, options) {
  const loaded = onlyTargets(load(config.targets), options.targets);
  // A try run's targets are those that stored its document, handed to every target (of `targets`, when given) again
  // now (try/documents.js).
  const handOff = loaded.coverage === DOCUMENT_COVERAGE ? await documents.handOff(options.document, options.targets) : null;
  if (handOff && !Object.values(handOff).some((h) => h.stored)) {
    throw new Error(`no target stored document ${options.document}: ${Object.entries(handOff).map(([n, h]) => `${n}: ${h.error}`).join('; ')}`);
  }
  const names = handOff
    ? new Set(Object.keys(handOff).filter((name) => handOff[name].stored))
    : new Set(loaded.scenarios.flatMap(targetsOfScenario).concat(coverageTargets(loaded, readManifests(), onlyOf(config.targets, options.targets))));
  const meta = { suite: loaded.name, description: loaded.description };
  if (options.targets) meta.onlyTargets = options.targets;
  if (loaded.attach) meta.attach = loaded.attach;
  if (handOff) {
    const blockMs = options.blockMs === undefined ? DEFAULT_BLOCK_MS : options.blockMs;
    // How many interleaved rounds each approach runs (try-suite.js): the run's own, else the suite's.
    const rounds = options.rounds > 0 ? options.rounds : loaded.documentScenarios.rounds;
    meta.try = { document: options.document, kind: options.kind, bytes: options.bytes, blockMs, rounds, handOff };
  }
  return { loaded, handOff, meta, targets: Object.fromEntries([...names].map((t) => [t, config.targets[t]])) };
}

/**
 * The second half, once the targets answered: meta gains when and where the pass ran and each target's /info, and the
 * suite its scenarios generated from what the targets run now. Resolves the suite to run.
 */
async function planScenarios({ config, log }, plan, options, signal) {
  Object.assign(plan.meta, { startedAt: new Date().toISOString(), machine: machine(), lab: labOf(), prometheus: config.prometheusUrl, targets: await describeTargets(plan.targets, config.waitTimeoutMs, log, signal, config) });
  const suite = plan.handOff
    ? withDocument(plan.loaded, plan.meta.targets, plan.handOff, { sha256: options.document, kind: options.kind }, { durationSeconds: options.durationSeconds, rounds: plan.meta.try.rounds })
    : withCoverage(plan.loaded, readManifests(), plan.meta.targets);
  checkScenarios(suite.name, suite.scenarios, config.targets);
  return suite;
}

module.exports = { checkRunOptions, planPass, planScenarios, labOf };
