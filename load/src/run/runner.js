'use strict';
// Runs suites one scenario after another and keeps the state that /runs/latest reports and the metrics show: a pass
// planned (plan.js), its scenarios run one by one (scenario-step.js), and finished (finish.js); looping, stopping.
const { loadSuite } = require('../suite/suites');
const { waitForTargets } = require('../suite/targets');
const { newRunDir, writeJson } = require('./results');
const { RUN_FILE } = require('./run-folder');
const { DOCUMENT_COVERAGE } = require('../try/try-suite');
const { checkRunOptions, planPass, planScenarios } = require('./plan');
const { runScenarioStep } = require('./scenario-step');
const { finishPass } = require('./finish');

function createRunner({ config, metrics, log, documents }) {
  let latest = null;
  let current = null; // the autocannon instance running now
  let session = null; // the suite started last: {controller, done (its whole loop), ended}
  const driver = { config, metrics, log, documents };

  /** One pass over the suite; signal aborts it (the scenario in progress is stopped, no other starts). */
  async function runOnce(suiteName, loop, signal, options) {
    const plan = await planPass(driver, suiteName, options);
    const run = newRunDir(config.resultsDir, plan.loaded.name);
    const status = { id: run.id, suite: plan.loaded.name, loop, state: 'waiting', resultsDir: run.dir, scenarios: plan.loaded.scenarios.length, completed: [], current: null, currentScenario: null, upcomingSeconds: null };
    if (plan.meta.try) status.try = plan.meta.try;
    latest = status;
    let suite = plan.loaded;
    try {
      await waitForTargets(plan.targets, config.waitTimeoutMs, log, signal, config);
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    if (!signal.aborted) {
      // The coverage comes from what the targets run now (their /info).
      suite = await planScenarios(driver, plan, options, signal);
      status.scenarios = suite.scenarios.length;
      writeJson(run.dir, RUN_FILE, plan.meta);
      status.state = 'running';
      log(`suite ${suite.name}: ${suite.scenarios.length} scenarios, results in ${run.dir}`);
    }
    let stoppedIn = null;
    for (let i = 0; i < suite.scenarios.length && !signal.aborted; i++) {
      const summary = await runScenarioStep(driver, { suite, i, status, runDir: run.dir, signal, setCurrent: (instance) => (current = instance) });
      if (summary === null) break;
      status.completed.push(summary);
      if (summary.stopped) stoppedIn = summary.name;
      // run.json after every scenario: a driver killed outright still leaves the run so far, marked running.
      writeJson(run.dir, RUN_FILE, Object.assign(plan.meta, { state: 'running', summary: status.completed }));
    }
    return finishPass(driver, { suite, status, meta: plan.meta, runDir: run.dir, signal, stoppedIn });
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

module.exports = { createRunner };
