'use strict';
// One scenario of a pass, from the driver's side: the target waited for (a target that died, and that compose
// restarts, is waited for again before its next scenario), the scenario run with the driver's metrics, its progress
// bar and a watch that ends it once its target stops answering, then what its outcome gains after the window (the
// server's series from Prometheus, thresholds, saturation flags, its CPU profile), written to its file and summarized.
const path = require('node:path');
const autocannon = require('autocannon');
const { waitForTargets, gone } = require('../suite/targets');
const { healthCheckOf } = require('../attach/attached');
const { withArrivalRate } = require('./arrival-share');
const { runScenario, DEFAULT_TIMEOUT_SECONDS } = require('../scenario/scenario');
const { waitForIdleTarget, busyTargetFlag } = require('./idle-target');
const { profiling, takeProfile, keepProfile, PROFILE_TAIL_SECONDS } = require('../profile/take-profile');
const { describeProbe } = require('../scenario/probe');
const { serverSeries, targetSeriesOf } = require('../scenario/server-series');
const { machineFigures } = require('../machine/busy-machine');
const { thresholdsOf, evaluateThresholds, failedThresholds } = require('../scenario/thresholds');
const { saturationFlags } = require('../scenario/saturation');
const { summarize, describeSummary, verdictOf } = require('./summary');
const { writeJson } = require('./results');
const { scenarioFileName } = require('./run-folder');

// What a scenario cut short by a stop says: it did not pass, whatever its answers were until then.
const STOPPED_PROBLEM = 'stopped before its end (POST /runs/stop, or the driver shutting down)';

/**
 * On request errors, asks the target's /healthz (once a second at most) and calls onGone(why) once if the target is
 * down: it died, or was stopped, during the scenario. One too busy to answer in time is not gone (worker-offload's
 * unoptimized route blocks its event loop for seconds on purpose): its requests' timeouts are counted as they are.
 */
function watchTarget(instance, check, onGone) {
  let checking = false;
  let lastCheck = 0;
  let reported = false;
  instance.on('reqError', async () => {
    if (reported || checking || Date.now() - lastCheck < 1000) return;
    checking = true;
    const why = await gone(check);
    checking = false;
    lastCheck = Date.now();
    if (why && !reported) {
      reported = true;
      onGone(why);
    }
  });
}

/** The scenario running now as /runs/latest's currentScenario: what it sends where, for how long, since when. */
function currentScenarioOf(scenario, index) {
  const run = scenario.run || null;
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
 * Runs scenario i of suite in the pass: driver {config, metrics, log}, pass {status (/runs/latest's, updated as it
 * goes), runDir, signal, setCurrent(instance or null): the autocannon instance a stop ends}. Resolves to its summary,
 * or null when it did not run (the pass was stopped, or its target never came: status.error says so).
 */
async function runScenarioStep({ config, metrics, log }, { suite, i, status, runDir, signal, setCurrent }) {
  // An open loop at a share of an earlier scenario's throughput gets its rate now (arrival-share.js).
  const scenario = withArrivalRate(suite.scenarios[i], status.completed);
  const url = config.targets[scenario.target];
  // An attached service's agent (attach/attached.js) is asked for its health and its profile; a lab service itself.
  const agent = config.attached[scenario.target];
  const profileUrl = agent ? config.targets[agent] : url;
  const check = healthCheckOf(scenario.target, url, config.attached, config.targets);
  try {
    await waitForTargets({ [scenario.target]: url }, config.waitTimeoutMs, log, signal, config);
  } catch (err) {
    if (signal.aborted) return null;
    status.error = `${scenario.name} not run: ${err.message}`;
    log(`suite ${suite.name}: ${status.error}`);
    return null;
  }
  // A run of an earlier scenario still in progress there (idle-target.js) is waited for, up to the request timeout; an
  // attached service is not a lab service, and its /healthz (if any) is not asked.
  const idle = scenario.target in config.attached ? null : await waitForIdleTarget(url, (scenario.timeoutSeconds || DEFAULT_TIMEOUT_SECONDS) * 1000, signal);
  if (idle) log(`${scenario.name}: waited ${idle.waitedMs} ms for ${idle.runs} run(s) of earlier scenarios on ${scenario.target} to end${idle.left > 0 ? `; ${idle.left} still in progress` : ''}`);
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
    outcome = await runScenario(scenario, url, {
      probeUrl: scenario.probe && scenario.probe.target ? config.targets[scenario.probe.target] : url,
      onWindowStart() {
        // Past the window by PROFILE_TAIL_SECONDS: the runs in flight when it ends finish after it, and one of them may hold the block.
        if (profiling(suite)) profile = takeProfile(profileUrl, scenario.durationSeconds + PROFILE_TAIL_SECONDS, config.profileToken, signal);
      },
      onStart(instance) {
        setCurrent(instance);
        if (signal.aborted) instance.stop(); // stopped while its body was fetched
        // autocannon's progress bar, for its own instances (an open loop's schedule has none).
        else if (process.stdout.isTTY && !scenario.arrivalRate) autocannon.track(instance, { renderResultsTable: false, renderLatencyTable: false });
        // A dead target fails its scenario at once: hammering it for the rest of the duration measures nothing.
        watchTarget(instance, check, (why) => {
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
    setCurrent(null);
  }
  if (scenario.arrivalProblem) Object.assign(outcome, { passed: false, problems: outcome.problems.concat([scenario.arrivalProblem]) });
  if (signal.aborted) {
    Object.assign(outcome, { stopped: true, passed: false, problems: outcome.problems.concat([STOPPED_PROBLEM]) });
  } else if (targetGone) {
    Object.assign(outcome, { passed: false, targetGone, problems: outcome.problems.concat([`${scenario.target} stopped answering during the scenario (/healthz: ${targetGone}); the scenario was ended`]) });
  }
  // A stopped run asks Prometheus nothing more: it may be stopping too (compose down), and the stop must be quick.
  outcome.server = signal.aborted
    ? { prometheus: config.prometheusUrl, available: false, error: 'not read: the run was stopped' }
    : await serverSeries(config.prometheusUrl, scenario, outcome.window.startMs, outcome.window.endMs);
  outcome.machineBusy = machineFigures(outcome.server.machine, config.busyPercent, targetSeriesOf(outcome));
  outcome.thresholds = evaluateThresholds(thresholdsOf(suite, scenario, scenario.run ? scenario.run.approach : undefined), outcome);
  const failed = failedThresholds(outcome.thresholds);
  if (failed.length) Object.assign(outcome, { passed: false, problems: outcome.problems.concat(failed) });
  outcome.flags = saturationFlags(outcome.driver, outcome.littlesLaw);
  if (idle) outcome.idleWait = idle;
  if (idle && idle.left > 0) outcome.flags.push(busyTargetFlag(scenario.target, idle));
  // The profile's answer comes when its seconds are over: a scenario that ended early (stopped, maxRequests) waits.
  if (profile) outcome.profile = keepProfile(await profile, path.join(runDir, scenarioFileName(i, scenario.name).replace(/\.json$/, '')), outcome.checks.runs.maxBlockAt);
  writeJson(runDir, scenarioFileName(i, scenario.name), outcome);
  const summary = summarize(outcome);
  metrics.scenarioRuns.inc({ scenario: scenario.name, target: scenario.target, verdict: verdictOf(summary) });
  log(`  ${describeSummary(summary, outcome.probe ? describeProbe(outcome.probe) : null)}`);
  if (!summary.passed && outcome.checks.samples.length > 0) log(`  first bad response: ${outcome.checks.samples[0]}`);
  status.current = null;
  status.currentScenario = null;
  return summary;
}

module.exports = { runScenarioStep };
