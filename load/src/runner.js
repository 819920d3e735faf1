'use strict';
// Runs suites one scenario after another and keeps the state that /runs/latest reports and the metrics show.
const path = require('node:path');
const autocannon = require('autocannon');
const { loadSuite, checkScenarios } = require('./suites');
const { withCoverage, coverageTargets } = require('./coverage');
const { readManifests } = require('@lab/lab-topology/manifests');
const { waitForTargets, describeTargets, gone } = require('./targets');
const { runScenario } = require('./scenario');
const { profiling, takeProfile, keepProfile, PROFILE_TAIL_SECONDS } = require('./profile/take-profile');
const { describeProbe } = require('./probe');
const { serverSeries, runOf } = require('./server-series');
const { thresholdsOf, evaluateThresholds, failedThresholds } = require('./thresholds');
const { saturationFlags } = require('./saturation');
const { summarize, describeSummary, verdictOf } = require('./summary');
const { newRunDir, machine, writeJson } = require('./results');
const { writeReport } = require('./report');
const { RUN_FILE, scenarioFileName } = require('./run-folder');
const { DOCUMENT_COVERAGE, withDocument } = require('./try-suite');
const { chooseApproaches, DEFAULT_BLOCK_MS } = require('./try-choice');
const { badRequest } = require('@lab/node-kit/errors');

// What a scenario cut short by a stop says: it did not pass, whatever its answers were until then.
const STOPPED_PROBLEM = 'stopped before its end (POST /runs/stop, or the driver shutting down)';

/**
 * On request errors, asks the target's /healthz (once a second at most) and calls onGone(why) once if the target is
 * down: it died, or was stopped, during the scenario. One too busy to answer in time is not gone (worker-offload's
 * unoptimized route blocks its event loop for seconds on purpose): its requests' timeouts are counted as they are.
 */
function watchTarget(instance, url, onGone) {
  let checking = false;
  let lastCheck = 0;
  let reported = false;
  instance.on('reqError', async () => {
    if (reported || checking || Date.now() - lastCheck < 1000) return;
    checking = true;
    const why = await gone(url);
    checking = false;
    lastCheck = Date.now();
    if (why && !reported) {
      reported = true;
      onGone(why);
    }
  });
}

/** What the run's header says of the lab itself: its commit and images, where the environment tells them. */
function labOf(env = process.env) {
  const images = {};
  for (const entry of (env.LAB_IMAGES || '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const at = entry.indexOf('=');
    if (at > 0) images[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return { commit: env.LAB_GIT_COMMIT || null, images };
}

/** The scenario running now as /runs/latest's currentScenario: what it sends where, for how long, since when. */
function currentScenarioOf(scenario, index) {
  const run = runOf(scenario);
  return {
    index: index + 1,
    name: scenario.name,
    target: scenario.target,
    request: `${scenario.method || 'GET'} ${scenario.path}`,
    workload: run ? run.workload : null,
    approach: run ? run.approach : null,
    connections: scenario.connections,
    durationSeconds: scenario.durationSeconds,
    maxRequests: scenario.maxRequests === undefined ? null : scenario.maxRequests,
    startedAt: new Date().toISOString(),
  };
}

/**
 * The options of a run of suite (loaded): a try suite needs the document (a sha256 the driver holds: documents.hold
 * throws its 404 otherwise) and takes blockMs and durationSeconds; any other suite takes none of them. Throws the 400.
 */
function checkRunOptions(suite, options, driverTargets) {
  if (options.targets) {
    const unknown = options.targets.find((name) => !driverTargets[name]);
    if (unknown) throw badRequest(`targets: ${unknown} is not one of this driver's targets`, { parameter: 'targets', allowed: Object.keys(driverTargets) });
    if (suite.coverage === undefined && !suite.scenarios.some((s) => options.targets.includes(s.target))) {
      throw badRequest(`suite ${suite.name} has no scenario for ${options.targets.join(', ')}`, { parameter: 'targets', allowed: [...new Set(suite.scenarios.map((s) => s.target))] });
    }
  }
  const given = ['document', 'blockMs', 'durationSeconds'].filter((name) => options[name] !== undefined);
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

function createRunner({ config, metrics, log, documents }) {
  let latest = null;
  let current = null; // the autocannon instance running now
  let session = null; // the suite started last: {controller, done (its whole loop), ended}

  /** One pass over the suite; signal aborts it (the scenario in progress is stopped, no other starts). */
  async function runOnce(suiteName, loop, signal, options) {
    const loaded = onlyTargets(loadSuite(suiteName, config.targets, config.suitesDir), options.targets);
    const manifests = readManifests();
    // A try run's targets are those that stored its document, handed to every target (of `targets`, when given) again
    // now (documents.js).
    const handOff = loaded.coverage === DOCUMENT_COVERAGE ? await documents.handOff(options.document, options.targets) : null;
    if (handOff && !Object.values(handOff).some((h) => h.stored)) {
      throw new Error(`no target stored document ${options.document}: ${Object.entries(handOff).map(([n, h]) => `${n}: ${h.error}`).join('; ')}`);
    }
    const names = handOff
      ? new Set(Object.keys(handOff).filter((name) => handOff[name].stored))
      : new Set(loaded.scenarios.map((s) => s.target).concat(coverageTargets(loaded, manifests, onlyOf(config.targets, options.targets))));
    const targets = Object.fromEntries([...names].map((t) => [t, config.targets[t]]));
    const run = newRunDir(config.resultsDir, loaded.name);
    const status = { id: run.id, suite: loaded.name, loop, state: 'waiting', resultsDir: run.dir, scenarios: loaded.scenarios.length, completed: [], current: null, currentScenario: null, upcomingSeconds: null };
    latest = status;
    const meta = { suite: loaded.name, description: loaded.description };
    if (options.targets) meta.onlyTargets = options.targets;
    if (handOff) {
      const blockMs = options.blockMs === undefined ? DEFAULT_BLOCK_MS : options.blockMs;
      meta.try = { document: options.document, kind: options.kind, bytes: options.bytes, blockMs, handOff };
      status.try = meta.try;
    }
    let suite = loaded;
    try {
      await waitForTargets(targets, config.waitTimeoutMs, log, signal);
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    if (!signal.aborted) {
      Object.assign(meta, { startedAt: new Date().toISOString(), machine: machine(), lab: labOf(), prometheus: config.prometheusUrl, targets: await describeTargets(targets, config.waitTimeoutMs, log, signal) });
      // The coverage comes from what the targets run now (their /info).
      suite = handOff ? withDocument(loaded, meta.targets, handOff, { sha256: options.document, kind: options.kind }, options.durationSeconds) : withCoverage(loaded, manifests, meta.targets);
      checkScenarios(suite.name, suite.scenarios, config.targets);
      status.scenarios = suite.scenarios.length;
      writeJson(run.dir, RUN_FILE, meta);
      status.state = 'running';
      log(`suite ${suite.name}: ${suite.scenarios.length} scenarios, results in ${run.dir}`);
    }
    let stoppedIn = null;
    for (const [i, scenario] of suite.scenarios.entries()) {
      if (signal.aborted) break;
      // A target that died (and that compose restarts) is waited for again before its next scenario.
      const target = { [scenario.target]: config.targets[scenario.target] };
      try {
        await waitForTargets(target, config.waitTimeoutMs, log, signal);
      } catch (err) {
        if (signal.aborted) break;
        status.error = `${scenario.name} not run: ${err.message}`;
        log(`suite ${suite.name}: ${status.error}`);
        break;
      }
      status.current = scenario.name;
      // What the live page shows of the scenario running now (its progress and time left) and after it.
      status.currentScenario = currentScenarioOf(scenario, i);
      status.upcomingSeconds = suite.scenarios.slice(i + 1).reduce((sum, s) => sum + s.durationSeconds, 0);
      const labels = { scenario: scenario.name, target: scenario.target };
      const requestLatency = metrics.requestLatency.labels(labels); // one label lookup, not one per response
      const probe = scenario.probe ? `, probe GET ${scenario.probe.path} at ${scenario.probe.ratePerSecond}/s` : '';
      log(`[${i + 1}/${suite.scenarios.length}] ${scenario.name}: ${scenario.method || 'GET'} ${scenario.target}${scenario.path}, ${scenario.connections} connections, ${scenario.durationSeconds} s${probe}`);
      metrics.scenarioActive.set(labels, 1);
      let outcome;
      let targetGone = null;
      let profile = null;
      try {
        outcome = await runScenario(scenario, config.targets[scenario.target], {
          onWindowStart() {
            // Past the window by PROFILE_TAIL_SECONDS: the runs in flight when it ends finish after it, and one of them may hold the block.
            if (profiling(suite)) profile = takeProfile(config.targets[scenario.target], scenario.durationSeconds + PROFILE_TAIL_SECONDS, config.profileToken, signal);
          },
          onStart(instance) {
            current = instance;
            if (signal.aborted) instance.stop(); // stopped while its body was fetched
            // autocannon's progress bar, for its own instances (an open loop's schedule has none).
            else if (process.stdout.isTTY && !scenario.arrivalRate) autocannon.track(instance, { renderResultsTable: false, renderLatencyTable: false });
            // A dead target fails its scenario at once: hammering it for the rest of the duration measures nothing.
            watchTarget(instance, config.targets[scenario.target], (why) => {
              targetGone = why;
              instance.stop();
            });
          },
          onProbeResponse(seconds) {
            metrics.probeLatency.observe(labels, seconds);
          },
          onResponse(seconds) {
            requestLatency.observe(seconds);
          },
        });
      } finally {
        metrics.scenarioActive.set(labels, 0);
        current = null;
      }
      if (signal.aborted) {
        Object.assign(outcome, { stopped: true, passed: false, problems: outcome.problems.concat([STOPPED_PROBLEM]) });
        stoppedIn = scenario.name;
      } else if (targetGone) {
        Object.assign(outcome, { passed: false, targetGone, problems: outcome.problems.concat([`${scenario.target} stopped answering during the scenario (/healthz: ${targetGone}); the scenario was ended`]) });
      }
      // A stopped run asks Prometheus nothing more: it may be stopping too (compose down), and the stop must be quick.
      outcome.server = signal.aborted
        ? { prometheus: config.prometheusUrl, available: false, error: 'not read: the run was stopped' }
        : await serverSeries(config.prometheusUrl, scenario, outcome.window.startMs, outcome.window.endMs);
      outcome.thresholds = evaluateThresholds(thresholdsOf(suite, scenario, (runOf(scenario) || {}).approach), outcome);
      const failed = failedThresholds(outcome.thresholds);
      if (failed.length) Object.assign(outcome, { passed: false, problems: outcome.problems.concat(failed) });
      outcome.flags = saturationFlags(outcome.driver, outcome.littlesLaw);
      // The profile's answer comes when its seconds are over: a scenario that ended early (stopped, maxRequests) waits.
      if (profile) outcome.profile = keepProfile(await profile, path.join(run.dir, scenarioFileName(i, scenario.name).replace(/\.json$/, '')), outcome.checks.runs.maxBlockAt);
      writeJson(run.dir, scenarioFileName(i, scenario.name), outcome);
      const summary = summarize(outcome);
      status.completed.push(summary);
      metrics.scenarioRuns.inc({ scenario: scenario.name, target: scenario.target, verdict: verdictOf(summary) });
      log(`  ${describeSummary(summary, outcome.probe ? describeProbe(outcome.probe) : null)}`);
      if (!summary.passed && outcome.checks.samples.length > 0) log(`  first bad response: ${outcome.checks.samples[0]}`);
      status.current = null;
      status.currentScenario = null;
      // run.json after every scenario: a driver killed outright still leaves the run so far, marked running.
      writeJson(run.dir, RUN_FILE, Object.assign(meta, { state: 'running', summary: status.completed }));
    }
    status.current = null;
    status.currentScenario = null;
    status.upcomingSeconds = 0;
    status.endedAt = new Date().toISOString();
    if (signal.aborted) status.state = 'stopped';
    else status.state = status.completed.length === suite.scenarios.length && status.completed.every((s) => s.passed) ? 'passed' : 'failed';
    const ran = status.completed.filter((c) => !c.stopped);
    const end = {
      endedAt: status.endedAt,
      state: status.state,
      verdict: status.state,
      // For a stopped run: the scenario it stopped in (null between scenarios), and how the scenarios that ran to
      // their end did.
      stoppedIn,
      verdictSoFar: ran.length === 0 ? null : ran.every((c) => c.passed) ? 'passed' : 'failed',
      error: status.error || null,
      summary: status.completed,
    };
    // What a try run tells its user (try-choice.js), kept with the run: report.html reads it from the scenarios again.
    if (meta.try) {
      end.choice = chooseApproaches(status.completed, meta.try.blockMs, meta.targets);
      status.choice = end.choice;
    }
    writeJson(run.dir, RUN_FILE, Object.assign(meta, end));
    // The report is for people: a problem writing it is logged and changes no verdict (make report redoes it).
    try {
      if (meta.startedAt) status.report = writeReport(run.dir);
    } catch (err) {
      log(`suite ${suite.name}: report.html not written: ${err.message}`);
    }
    log(`suite ${suite.name}: ${status.state}${status.report ? `, report ${status.report}` : ''}`);
    return status;
  }

  const running = () => session !== null && !session.ended;

  /**
   * Starts suiteName in the background (looping if asked, until stopped). Throws if a suite is already running, or if
   * the suite does not load. Returns a promise that resolves when it has ended, however it ended.
   */
  function start(suiteName, loop, options = {}) {
    if (running()) throw new Error(`suite ${latest.suite} is running`);
    const suite = loadSuite(suiteName, config.targets, config.suitesDir); // fail now, in the caller, on a bad suite
    checkRunOptions(Object.assign({ name: suiteName }, suite), options, config.targets);
    // A try run's document stays in the driver's store (never dropped for room) until the run ends.
    const held = suite.coverage === DOCUMENT_COVERAGE ? documents.hold(options.document) : null;
    const runOptions = Object.assign({}, options, held ? { bytes: held.bytes, kind: held.kind } : {});
    const controller = new AbortController();
    const go = () => runOnce(suiteName, loop, controller.signal, runOptions).then(() => (loop && !controller.signal.aborted ? go() : undefined));
    const own = { controller, ended: false };
    session = own;
    latest = { suite: suiteName, loop, state: 'waiting', completed: [] };
    own.done = go()
      .catch((err) => {
        log(`suite ${suiteName}: ${err.message}`);
        latest = Object.assign(latest, { state: 'error', error: err.message });
      })
      .finally(() => {
        if (held) held.release();
        own.ended = true;
      });
    return own.done;
  }

  /**
   * Stops the running suite as SIGTERM does: the scenario in progress is stopped (its results are written, marked
   * stopped), no other scenario or loop pass starts, and the run's state becomes `stopped`. Returns a promise of that
   * final state, or null when no suite runs.
   */
  function stop() {
    if (!running()) return null;
    session.controller.abort();
    if (current) current.stop();
    return session.done.then(() => latest);
  }

  return { start, stop, running, latest: () => latest };
}

module.exports = { createRunner, checkRunOptions };
