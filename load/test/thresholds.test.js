'use strict';
// Thresholds, k6 style: a misspelt one fails the suite when it loads; a threshold the run cannot meet fails the run,
// with a non-zero exit of run-suite.js and the threshold named; one that needs Prometheus, which is not there, is not
// evaluated and fails nothing.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { loadSuite } = require('../src/suite/suites');
const { evaluateThresholds, failedThresholds } = require('../src/scenario/thresholds');
const { startService, tempDir } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');

const TARGETS = { 'node-async': 'http://127.0.0.1:1' };
const scenario = (extra) => Object.assign({ name: 'one', target: 'node-async', run: { workload: 'stringify', approach: 'async', params: { size: 20 } }, connections: 1, durationSeconds: 1, maxRequests: 30, expect: 'validated' }, extra);

function suitesDir(suites) {
  const dir = tempDir('thresholds-');
  for (const [name, suite] of Object.entries(suites)) fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(suite));
  return dir;
}

test('an unknown threshold, a bad limit or a misspelt field fails the suite when it loads, naming it', () => {
  const dir = suitesDir({
    misspelt: { thresholds: { latencyP99ms: 500 }, scenarios: [scenario()] },
    scenarioLevel: { scenarios: [scenario({ thresholds: { errorz: 0 } })] },
    negative: { scenarios: [scenario({ thresholds: { errors: -1 } })] },
    byApproach: { thresholdsByApproach: { fast: { serverLagP99: 10 } }, scenarios: [scenario()] },
    field: { scenarios: [scenario({ treshold: { errors: 0 } })] },
    good: { thresholds: { errors: 0 }, thresholdsByApproach: { fast: { serverLagP99Ms: 100 } }, scenarios: [scenario({ thresholds: { latencyP99Ms: 500 } })] },
  });
  assert.throws(() => loadSuite('misspelt', TARGETS, dir), /suite misspelt: unknown threshold "latencyP99ms"; thresholds are .*latencyP99Ms/);
  assert.throws(() => loadSuite('scenarioLevel', TARGETS, dir), /scenario 0 \(one\): unknown threshold "errorz"/);
  assert.throws(() => loadSuite('negative', TARGETS, dir), /threshold errors must be a number ≥ 0, got -1/);
  assert.throws(() => loadSuite('byApproach', TARGETS, dir), /thresholdsByApproach.fast: unknown threshold "serverLagP99"/);
  assert.throws(() => loadSuite('field', TARGETS, dir), /unknown field treshold/);
  const good = loadSuite('good', TARGETS, dir);
  assert.deepStrictEqual(good.thresholds, { errors: 0 });
});

function runSuite(suite, driverUrl) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'src', 'run-suite.js'), suite, driverUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('a threshold the run cannot meet fails it (run-suite exits 1, naming it); a server threshold without Prometheus fails nothing', async (t) => {
  const service = await startService(makeService());
  const dir = tempDir('thresholds-run-');
  const suites = path.join(dir, 'suites');
  fs.mkdirSync(suites);
  // No server answers this many requests a second; errors 0 holds; the server's lag cannot be read (no Prometheus).
  fs.writeFileSync(path.join(suites, 'unmeetable.json'), JSON.stringify({
    thresholds: { errors: 0, serverLagP99Ms: 1 },
    scenarios: [scenario({ thresholds: { minRequestsPerSecond: 1000000000 } })],
  }));
  fs.writeFileSync(path.join(suites, 'meetable.json'), JSON.stringify({ thresholds: { errors: 0, invalid: 0, serverLagP99Ms: 1, ownBlockMaxMs: 600000 }, scenarios: [scenario()] }));
  // A port nothing listens on: Prometheus is unreachable.
  const closed = await startService(makeService());
  const closedUrl = closed.url;
  await closed.close();
  const driver = await startDriver({
    PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `node-async=${service.url}`, LOAD_SUITES_DIR: suites,
    RESULTS_DIR: path.join(dir, 'results'), PROMETHEUS_URL: closedUrl,
  });
  t.after(async () => {
    await stopDriver(driver);
    await service.close();
  });

  const failed = await runSuite('unmeetable', driver.url);
  assert.strictEqual(failed.code, 1, failed.output);
  assert.match(failed.output, /FAILED one: .*threshold minRequestsPerSecond [\d.]+ < 1000000000/);
  assert.match(failed.output, /suite unmeetable: failed/);

  const passed = await runSuite('meetable', driver.url);
  assert.strictEqual(passed.code, 0, passed.output);
  assert.match(passed.output, /passed one: .*thresholds 3\/3/);
  const runDir = /results in ([^\s,]+)/.exec(passed.output)[1];
  assert.match(passed.output, /report \S+report\.html/, 'the report is written when the suite ends');
  assert.ok(fs.existsSync(path.join(runDir, 'report.html')));
  const saved = JSON.parse(fs.readFileSync(path.join(runDir, '01-one.json'), 'utf8'));
  assert.strictEqual(saved.server.available, false);
  assert.match(saved.server.error, /ECONNREFUSED|fetch failed/);
  const lag = saved.thresholds.find((th) => th.name === 'serverLagP99Ms');
  assert.strictEqual(lag.passed, null);
  assert.match(lag.why, /no server series/);
  // The service's runs report their block's own part: the threshold is read from them, not from Prometheus.
  const own = saved.thresholds.find((th) => th.name === 'ownBlockMaxMs');
  assert.strictEqual(own.passed, true, JSON.stringify(own));
  assert.ok(own.actual >= 0 && own.actual <= saved.checks.runs.maxBlockMs, JSON.stringify({ own, runs: saved.checks.runs }));
});

test("ownBlockMaxMs holds the runs' own part of their longest block, and is not evaluated where no run reported it", () => {
  const outcome = (runs) => ({ checks: { runs }, result: {}, probe: null });
  const [over] = evaluateThresholds({ ownBlockMaxMs: 25 }, outcome({ count: 3, maxBlockMs: 90, maxBlockWaitMs: 60, maxOwnBlockMs: 30 }));
  assert.strictEqual(over.passed, false);
  assert.strictEqual(over.actual, 30);
  assert.deepStrictEqual(failedThresholds([over]), ['threshold ownBlockMaxMs 30 > 25']);
  // A block made long by waiting for a CPU does not fail it: 90 ms long, 20 ms its own.
  assert.strictEqual(evaluateThresholds({ ownBlockMaxMs: 25 }, outcome({ count: 3, maxBlockMs: 90, maxBlockWaitMs: 70, maxOwnBlockMs: 20 }))[0].passed, true);
  for (const runs of [{ count: 0, maxOwnBlockMs: null }, { count: 2, maxOwnBlockMs: null }]) {
    const [unread] = evaluateThresholds({ ownBlockMaxMs: 25 }, outcome(runs));
    assert.strictEqual(unread.passed, null);
    assert.match(unread.why, /no run reported/);
  }
});
