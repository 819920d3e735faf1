'use strict';
// The driver end to end against a real node-async service: a suite started over HTTP runs, checks every response,
// writes its results and shows in the metrics.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startService, request, sumOf, until, tempDir } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');

function waitForEnd(url) {
  return until('the suite ended', 120000, async () => {
    const status = (await request(`${url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });
}

test('a suite started over HTTP checks responses, writes results and marks the scenario in metrics', async (t) => {
  const service = await startService(makeService());
  const dir = tempDir('load-');
  const scenario = (name, run, expect) => ({ name, target: 'node-async', run, connections: 2, durationSeconds: 1, maxRequests: 40, expect });
  fs.mkdirSync(path.join(dir, 'suites'));
  const probed = Object.assign(scenario('stringify', { workload: 'stringify', approach: 'async', params: { size: 20 } }, 'validated'), { probe: { path: '/healthz', ratePerSecond: 10 } });
  fs.writeFileSync(path.join(dir, 'suites', 'good.json'), JSON.stringify({ scenarios: [probed] }));
  fs.writeFileSync(path.join(dir, 'suites', 'bad.json'), JSON.stringify({ scenarios: [scenario('bad-size', { workload: 'stringify', approach: 'native', params: { size: 0 } }, 'validated')] }));
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `node-async=${service.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: path.join(dir, 'results') });
  t.after(async () => {
    await stopDriver(driver);
    await service.close();
  });
  const url = `http://127.0.0.1:${driver.port}`;

  assert.strictEqual((await request(`${url}/runs?suite=nope`, { method: 'POST' })).status, 400);
  assert.strictEqual((await request(`${url}/runs?suite=good`, { method: 'POST' })).status, 202);
  const good = await waitForEnd(url);
  assert.strictEqual(good.state, 'passed', JSON.stringify(good));
  assert.ok(good.completed[0].requests > 0 && good.completed[0].requests <= 40 + 2, 'maxRequests bounds the count');
  const files = fs.readdirSync(good.resultsDir).sort();
  assert.deepStrictEqual(files, ['01-stringify.json', 'report.html', 'run.json']);
  const run = JSON.parse(fs.readFileSync(path.join(good.resultsDir, 'run.json'), 'utf8'));
  assert.strictEqual(run.targets['node-async'].runtime.version, process.versions.node);
  assert.strictEqual(run.verdict, 'passed');
  assert.ok(run.machine.cpus > 0);
  const saved = JSON.parse(fs.readFileSync(path.join(good.resultsDir, '01-stringify.json'), 'utf8'));
  assert.strictEqual(saved.result.requests.total, good.completed[0].requests);
  assert.ok(saved.probe.requests > 0 && saved.probe.errors === 0, JSON.stringify(saved.probe));
  assert.strictEqual(good.completed[0].probeMaxMs, saved.probe.latencyMs.max);
  assert.strictEqual(good.completed[0].probeP99Ms, saved.probe.latencyMs.p99);

  assert.strictEqual((await request(`${url}/runs?suite=bad`, { method: 'POST' })).status, 202);
  const bad = await waitForEnd(url);
  assert.strictEqual(bad.state, 'failed');
  assert.match(bad.completed[0].problems.join(), /non-2xx/);

  const metrics = (await request(`${url}/metrics`)).text;
  assert.strictEqual(sumOf(metrics, 'lab_load_scenario_active', { scenario: 'stringify', target: 'node-async' }), 0);
  assert.strictEqual(sumOf(metrics, 'lab_load_scenario_runs_total', { scenario: 'stringify', verdict: 'passed' }), 1);
  assert.strictEqual(sumOf(metrics, 'lab_load_scenario_runs_total', { scenario: 'bad-size', verdict: 'failed' }), 1);
  assert.strictEqual(sumOf(metrics, 'lab_load_probe_latency_seconds_count', { scenario: 'stringify', target: 'node-async' }), saved.probe.requests);
  assert.strictEqual(bad.completed[0].probeMaxMs, null, 'no probe, no probe latency');
});

test('targets= runs only the scenarios of the targets named, and refuses a name the driver or the suite lacks', async (t) => {
  const first = await startService(makeService());
  const second = await startService(makeService());
  const dir = tempDir('load-targets-');
  fs.mkdirSync(path.join(dir, 'suites'));
  const scenario = (target) => ({ name: `${target}-stringify`, target, run: { workload: 'stringify', approach: 'native', params: { size: 20 } }, connections: 1, durationSeconds: 1, maxRequests: 20, expect: 'validated' });
  fs.writeFileSync(path.join(dir, 'suites', 'two.json'), JSON.stringify({ scenarios: [scenario('node-async'), scenario('other')] }));
  fs.writeFileSync(path.join(dir, 'suites', 'one.json'), JSON.stringify({ scenarios: [scenario('node-async')] }));
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', PROMETHEUS_URL: 'none', LOAD_TARGETS: `node-async=${first.url},other=${second.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: path.join(dir, 'results') });
  t.after(async () => {
    await stopDriver(driver);
    await first.close();
    await second.close();
  });
  const post = (query) => request(`${driver.url}/runs?${query}`, { method: 'POST' });

  const unknown = await post('suite=two&targets=node-async,nope');
  assert.strictEqual(unknown.status, 400, unknown.text);
  assert.strictEqual(unknown.json.parameter, 'targets');
  assert.deepStrictEqual(unknown.json.allowed, ['node-async', 'other']);
  const absent = await post('suite=one&targets=other');
  assert.strictEqual(absent.status, 400, absent.text);
  assert.deepStrictEqual(absent.json.allowed, ['node-async']);
  assert.strictEqual((await post('suite=two&targets=Node_Async')).status, 400, 'a malformed list');

  assert.strictEqual((await post('suite=two&targets=other')).status, 202);
  const run = await waitForEnd(driver.url);
  assert.strictEqual(run.state, 'passed', JSON.stringify(run));
  assert.deepStrictEqual(run.completed.map((s) => s.name), ['other-stringify']);
  const saved = JSON.parse(fs.readFileSync(path.join(run.resultsDir, 'run.json'), 'utf8'));
  assert.deepStrictEqual(saved.onlyTargets, ['other']);
  assert.deepStrictEqual(Object.keys(saved.targets), ['other'], 'only the named target is described');
});
