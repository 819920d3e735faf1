'use strict';
// Runs suites one scenario after another and keeps the state that /runs/latest reports and the metrics show: a pass
// planned (plan.js), its scenarios run one by one (scenario-step.js), and finished (finish.js); looping, stopping. A
// suite is a file's, or POST /attach's, made in memory with the attachment its run loads (attach/attachment.js): the
// runner keeps the attachment of the run it started last, and every part of a run sees the driver's targets with it.
const { loadSuite, checkSuite } = require('../suite/suites');
const { withAttachment } = require('../attach/attachment');
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
  let attachment = null; // the service POST /attach named for the run started last (attach/attachment.js), or null
  const driverOf = () => ({ config: withAttachment(config, attachment), metrics, log, documents });

  /** One pass over the suite load(targets) reads; signal aborts it (the scenario in progress is stopped, no other starts). */
  async function runOnce(load, loop, signal, options) {
    const driver = driverOf();
    const plan = await planPass(driver, load, options);
    const run = newRunDir(config.resultsDir, plan.loaded.name);
    const status = { id: run.id, suite: plan.loaded.name, loop, state: 'waiting', resultsDir: run.dir, scenarios: plan.loaded.scenarios.length, completed: [], current: null, currentScenario: null, upcomingSeconds: null };
    if (plan.meta.try) status.try = plan.meta.try;
    latest = status;
    let suite = plan.loaded;
    try {
      await waitForTargets(plan.targets, config.waitTimeoutMs, log, signal, driver.config);
      // An attached service's agent scraped by Prometheus before the first load (attach/attach-scrape.js).
      if (attachment && attachment.ready && !signal.aborted) {
        status.waitingFor = attachment.waitingFor;
        await attachment.ready(signal);
        delete status.waitingFor;
      }
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
    attachment = null;
    return begin(suiteName, (targets) => loadSuite(suiteName, targets, config.suitesDir), loop, options);
  }

  /**
   * Starts POST /attach's run (attach/attach-request.js): suite (its data, made in memory) once, with next as the
   * attachment its targets come from. Throws as start does.
   */
  function startAttached(suiteName, suite, next) {
    if (running()) throw new Error(`suite ${latest.suite} is running`);
    attachment = next;
    return begin(suiteName, (targets) => checkSuite(suiteName, suite, targets), false, {});
  }

  function begin(suiteName, load, loop, options) {
    const targets = withAttachment(config, attachment).targets;
    const suite = load(targets); // fail now, in the caller, on a bad suite
    checkRunOptions(Object.assign({ name: suiteName }, suite), options, targets);
    // A try run's document stays in the driver's store (never dropped for room) until the run ends.
    const held = suite.coverage === DOCUMENT_COVERAGE ? documents.hold(options.document) : null;
    const runOptions = Object.assign({}, options, held ? { bytes: held.bytes, kind: held.kind } : {});
    const controller = new AbortController();
    const go = () => runOnce(load, loop, controller.signal, runOptions).then(() => (loop && !controller.signal.aborted ? go() : undefined));
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

  /** The driver's targets ({name: url}) as the run started last sees them: its own and the attachment's. */
  const targets = () => withAttachment(config, attachment).targets;

  return { start, startAttached, stop, running, targets, attachment: () => attachment, latest: () => latest };
}

module.exports = { createRunner };
