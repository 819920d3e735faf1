'use strict';
// Runs suites one scenario after another and keeps the state that /runs/latest reports and the metrics show.
const autocannon = require('autocannon');
const { loadSuite } = require('./suites');
const { waitForTargets, describeTargets } = require('./targets');
const { runScenario } = require('./scenario');
const { describeProbe } = require('./probe');
const { newRunDir, machine, writeJson } = require('./results');

function summarize(outcome) {
  const r = outcome.result;
  return {
    name: outcome.scenario.name,
    target: outcome.scenario.target,
    passed: outcome.passed,
    problems: outcome.problems,
    requests: r.requests.total,
    requestsPerSecond: r.requests.average,
    latencyP99Ms: r.latency.p99,
    latencyMaxMs: r.latency.max,
    // null without a probe, or when no probe request was answered (see the result file's probe section)
    probeP99Ms: outcome.probe && outcome.probe.latencyMs ? outcome.probe.latencyMs.p99 : null,
    probeMaxMs: outcome.probe && outcome.probe.latencyMs ? outcome.probe.latencyMs.max : null,
  };
}

function createRunner({ config, metrics, log }) {
  let latest = null;
  let current = null; // the autocannon instance running now
  let stopping = false;

  async function runOnce(suiteName) {
    const suite = loadSuite(suiteName, config.targets, config.suitesDir);
    const targets = Object.fromEntries([...new Set(suite.scenarios.map((s) => s.target))].map((t) => [t, config.targets[t]]));
    const run = newRunDir(config.resultsDir, suite.name);
    const status = { id: run.id, suite: suite.name, state: 'waiting', resultsDir: run.dir, scenarios: suite.scenarios.length, completed: [], current: null };
    latest = status;
    await waitForTargets(targets, config.waitTimeoutMs, log);
    const meta = { suite: suite.name, description: suite.description, startedAt: new Date().toISOString(), machine: machine(), targets: await describeTargets(targets) };
    writeJson(run.dir, 'run.json', meta);
    status.state = 'running';
    log(`suite ${suite.name}: ${suite.scenarios.length} scenarios, results in ${run.dir}`);
    for (const [i, scenario] of suite.scenarios.entries()) {
      if (stopping) break;
      status.current = scenario.name;
      const labels = { scenario: scenario.name, target: scenario.target };
      const probe = scenario.probe ? `, probe GET ${scenario.probe.path} at ${scenario.probe.ratePerSecond}/s` : '';
      log(`[${i + 1}/${suite.scenarios.length}] ${scenario.name}: ${scenario.method || 'GET'} ${scenario.target}${scenario.path}, ${scenario.connections} connections, ${scenario.durationSeconds} s${probe}`);
      metrics.scenarioActive.set(labels, 1);
      let outcome;
      try {
        outcome = await runScenario(scenario, config.targets[scenario.target], {
          onStart(instance) {
            current = instance;
            if (process.stdout.isTTY) autocannon.track(instance, { renderResultsTable: false, renderLatencyTable: false });
          },
          onProbeResponse(seconds) {
            metrics.probeLatency.observe(labels, seconds);
          },
        });
      } finally {
        metrics.scenarioActive.set(labels, 0);
        current = null;
      }
      writeJson(run.dir, `${String(i + 1).padStart(2, '0')}-${scenario.name}.json`, outcome);
      const summary = summarize(outcome);
      status.completed.push(summary);
      metrics.scenarioRuns.inc({ scenario: scenario.name, target: scenario.target, verdict: summary.passed ? 'passed' : 'failed' });
      const probed = outcome.probe ? `; ${describeProbe(outcome.probe)}` : '';
      log(`  ${summary.passed ? 'passed' : 'FAILED'}: ${summary.requests} requests, ${summary.requestsPerSecond} req/s, p99 ${summary.latencyP99Ms} ms${probed}${summary.passed ? '' : ` — ${summary.problems.join('; ')}`}`);
      if (!summary.passed && outcome.checks.samples.length > 0) log(`  first bad response: ${outcome.checks.samples[0]}`);
    }
    status.current = null;
    status.finishedAt = new Date().toISOString();
    status.state = status.completed.length === suite.scenarios.length && status.completed.every((s) => s.passed) ? 'passed' : 'failed';
    writeJson(run.dir, 'run.json', Object.assign(meta, { finishedAt: status.finishedAt, verdict: status.state, summary: status.completed }));
    log(`suite ${suite.name}: ${status.state}`);
    return status;
  }

  /** Starts suiteName in the background (looping if asked). Throws if a suite is already running. */
  function start(suiteName, loop) {
    if (latest && ['waiting', 'running'].includes(latest.state)) throw new Error(`suite ${latest.suite} is running`);
    loadSuite(suiteName, config.targets, config.suitesDir); // fail now, in the caller, on a bad suite
    const go = () =>
      runOnce(suiteName).then(
        () => (loop && !stopping ? go() : undefined),
        (err) => {
          log(`suite ${suiteName}: ${err.message}`);
          latest = Object.assign(latest || { suite: suiteName }, { state: 'error', error: err.message });
        },
      );
    latest = { suite: suiteName, state: 'waiting', completed: [] };
    return go();
  }

  function stop() {
    stopping = true;
    if (current) current.stop();
  }

  return { start, stop, latest: () => latest };
}

module.exports = { createRunner };
