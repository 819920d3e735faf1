'use strict';
// A busy machine is named, not blamed on the approach: with CPU hogs of the test's own beside a real run (the real
// driver, a real node-async, a real Prometheus scraping both), the CPU no lab job used is counted as gone elsewhere,
// the scenario and the run say the machine was busy and their figures are not a verdict, and report.html says so in
// its header; before a run starts, the same hogs make the machine busy. Properties, not timings: as many hogs as the
// machine has CPUs, never scraped, keep at least a CPU's worth busy outside the lab however loaded the machine
// already is, far past the 10 % limit the run is given.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startService, request, until } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');
const { startPrometheus, findPrometheus, freePort } = require('@lab/test-kit/prometheus-process');
const { readMachine } = require('@lab/node-kit/machine');
const { machineBeforeStart } = require('../src/machine/before-start');

// Each hog ends on its own after this long, should the test die before it stops them.
const HOG_LIMIT_MS = 180000;

function startHogs(count) {
  const hogs = [];
  for (let i = 0; i < count; i++) {
    hogs.push(spawn(process.execPath, ['-e', `const end = Date.now() + ${HOG_LIMIT_MS}; while (Date.now() < end);`], { stdio: 'ignore' }));
  }
  return async () => {
    await Promise.all(hogs.map((hog) => new Promise((resolve) => {
      if (hog.exitCode !== null || hog.signalCode !== null) return resolve();
      hog.on('exit', resolve);
      hog.kill('SIGKILL');
    })));
  };
}

test('CPU hogs beside a run: the scenario, run.json and report.html say the machine was busy and the figures are no verdict', { skip: findPrometheus() ? false : 'no prometheus binary (make setup installs it)' }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-busy-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'suites'));
  const scenario = { name: 'beside-hogs', target: 'node-async', run: { workload: 'stringify', approach: 'native', params: { size: 100 } }, connections: 1, durationSeconds: 4, maxRequests: 100000, expect: 'validated' };
  fs.writeFileSync(path.join(dir, 'suites', 'busy.json'), JSON.stringify({ description: 'beside CPU hogs', scenarios: [scenario] }));
  const service = await startService(makeService());
  let prometheus = null;
  let driver = null;
  let stopHogs = null;
  t.after(async () => {
    if (stopHogs) await stopHogs();
    if (driver) await stopDriver(driver);
    if (prometheus) await prometheus.stop();
    await service.close();
  });
  const promPort = await freePort();
  const promUrl = `http://127.0.0.1:${promPort}`;
  driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `node-async=${service.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: path.join(dir, 'results'), PROMETHEUS_URL: promUrl, LAB_BUSY_PERCENT: '10' });
  prometheus = await startPrometheus({ 'node-async': new URL(service.url).host, load: `127.0.0.1:${driver.port}` }, promPort);
  await until('both jobs scraped', 120000, async () => {
    const body = await (await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent('sum(up)')}`)).json();
    return { done: body.data.result.length === 1 && body.data.result[0].value[1] === '2', why: JSON.stringify(body.data.result) };
  });
  const cpus = readMachine().cpus;
  stopHogs = startHogs(cpus);

  assert.strictEqual((await request(`${driver.url}/runs?suite=busy`, { method: 'POST' })).status, 202);
  const run = await until('the run ended', 180000, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });
  await stopHogs();

  const [summary] = run.completed;
  if (process.env.LAB_TEST_VERBOSE) console.log(JSON.stringify(summary.machineBusy));
  const m = summary.machineBusy;
  assert.ok(m, `the scenario's machine was watched: ${JSON.stringify(summary)}`);
  assert.strictEqual(m.cpus, cpus);
  assert.strictEqual(m.busyLimitPercent, 10);
  assert.ok(m.elsewherePercent > 10 && m.elsewherePercent <= m.elsewherePeakPercent && m.elsewherePeakPercent <= 100, JSON.stringify(m));
  assert.strictEqual(m.busy, true);
  // The approach's own verdict stands on its own checks: the run passed, and says the machine was busy beside it.
  assert.strictEqual(summary.passed, true, JSON.stringify(summary.problems));

  const runJson = JSON.parse(fs.readFileSync(path.join(run.resultsDir, 'run.json'), 'utf8'));
  assert.deepStrictEqual(runJson.machineBusy.busyScenarios, ['beside-hogs']);
  assert.strictEqual(runJson.machineBusy.worst.elsewherePercent, m.elsewherePercent);
  assert.strictEqual(runJson.machine.cpus, cpus, "run.json's description of the machine is still there");
  const report = fs.readFileSync(path.join(run.resultsDir, 'report.html'), 'utf8');
  assert.match(report, /<p class="notice busy" data-notice="machine-busy">The machine was busy: [\d.]+ % of its CPU went to processes outside the lab .*these figures are not a verdict/);
  assert.match(report, new RegExp(`data-field="machineElsewherePercent" data-value="${m.elsewherePercent}"`));
});

test('before a run starts, CPU hogs make the machine busy, said in the line make try and the matrix print', async (t) => {
  const stop = startHogs(readMachine().cpus);
  t.after(stop);
  // As many hogs as CPUs: no CPU idles while they run, however loaded the machine already was.
  const before = await machineBeforeStart(10);
  await stop();
  assert.ok(before.window.busyShare > 0.5, JSON.stringify(before.window));
  assert.strictEqual(before.busy, true);
  assert.match(before.line, /^the machine before the start: [\d.]+ of \d+ CPUs busy \([\d.]+ %\), load [\d.]+.*: busy, past LAB_BUSY_PERCENT=10 %/);
});
