'use strict';
// report.html in a real headless Chromium: a run folder made by the real driver against node-async's real service (2
// scenarios, no Prometheus), its report written, then opened from file:// and checked by checkReportInBrowser (no
// network request, no console or page error, every chart holding its samples, the tables holding run.json's numbers).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startService, request, until, tempDir } = require('@lab/test-kit');
const { makeService } = require('@lab/node-async/src/service');
const { startDriver, stopDriver } = require('./driver-process');
const { writeReport } = require('../src/report');
const { checkReportInBrowser, findChromium } = require('./report-browser');

// A bound on a hung run, not a timing: 2 scenarios of 1 s each end long before it on any machine.
const RUN_BOUND_MS = 600000;

test('report.html of a real run draws every chart and holds the run\'s numbers in headless Chromium, offline', { timeout: 2 * RUN_BOUND_MS }, async (t) => {
  if (!findChromium()) {
    t.skip('no chromium executable: install Debian\'s chromium (scripts/install-system-packages.sh) or set CHROMIUM_PATH');
    return;
  }
  const service = await startService(makeService());
  const dir = tempDir('load-report-');
  const scenario = (approach, thresholds) => ({
    name: `stringify-${approach}`, target: 'node-async', run: { workload: 'stringify', approach, params: { size: 20 } }, connections: 2,
    durationSeconds: 2, maxRequests: 4000, expect: 'validated', probe: { path: '/healthz', ratePerSecond: 10 }, thresholds,
  });
  fs.mkdirSync(path.join(dir, 'suites'));
  // One threshold that passes, one that must fail and one that cannot be evaluated without Prometheus: all three shown.
  fs.writeFileSync(path.join(dir, 'suites', 'tiny.json'), JSON.stringify({
    thresholds: { errors: 0, serverLagP99Ms: 1000 },
    scenarios: [scenario('native', {}), scenario('async', { minRequestsPerSecond: 1e9 })],
  }));
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `node-async=${service.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: path.join(dir, 'results'), PROMETHEUS_URL: 'none' });
  t.after(async () => {
    await stopDriver(driver);
    await service.close();
  });

  assert.strictEqual((await request(`${driver.url}/runs?suite=tiny`, { method: 'POST' })).status, 202);
  const run = await until('the suite ended', RUN_BOUND_MS, async () => {
    const status = (await request(`${driver.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
  });
  assert.strictEqual(run.state, 'failed', 'minRequestsPerSecond 1e9 fails the run');

  const reportFile = writeReport(run.resultsDir);
  assert.strictEqual(reportFile, path.join(run.resultsDir, 'report.html'));
  const screenshot = path.join(dir, 'report.png');
  const found = await checkReportInBrowser(reportFile, { screenshot });
  t.diagnostic(found.text);
  t.diagnostic(`screenshot: ${screenshot}`);
  console.log(`report screenshot: ${screenshot}`);
  assert.strictEqual(found.scenarios, 2);
  assert.strictEqual(found.charts, 2, 'without Prometheus each scenario has its client chart only');
  assert.strictEqual(found.notices, 2, 'and says in place of the server charts why they are missing');
  assert.ok(fs.statSync(screenshot).size > 0);
});
