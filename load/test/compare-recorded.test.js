'use strict';
// `make compare` on runs recorded by the real driver (src/main.js as a child process) against a real HTTP server on
// port 0 whose every answer waits on a timer: run A and run B with the same delay, run C with the delay 30 % longer.
// compare A C must find C significantly worse (throughput and latency) and exit 1; compare A B must find no significant
// regression of throughput or the median beyond MAX_REGRESSION, and exit 0 unless it found one in the tail.
//
// Why this cannot be flaky on a slow or loaded machine (measured beside two CPU hogs on two cores):
// - Latency is the timer's, not the CPU's: each answer waits BASE_DELAY_MS (100 ms) or 30 % more on a timer and costs
//   well under a millisecond of work, on 8 connections (~78 answers/s: nothing for the driver or the server). A
//   loaded machine adds scheduling delay to the answers of every run alike, a few ms to the bulk, so C's median stays
//   30 ms (30 %) above A's, and for A's and B's medians or means to differ by 10 %, every second of one run would have
//   to be delayed 10 ms more than the other's. 100 ms rather than 20: the hiccups of a loaded machine (30-90 ms beside
//   two hogs) are absolute, so a longer base keeps them a smaller share of the tail.
// - Each run lasts SECONDS (8) seconds: 8 per-second samples a side. Mann-Whitney's exact two-sided p for two fully
//   separated samples of 8 is 2/C(16, 8) = 0.00016, and it stays below 0.05 with up to 13 of the 64 pairs out of
//   order, so a few slow seconds in A cannot hide C's slowdown. The test is exact (no resampling seed): the same
//   recordings always give the same verdict.
// - Throughput follows from latency on a closed loop (answers/s ≈ connections / latency): 30 % more latency is ~23 %
//   less throughput, far from the 10 % gate either way.
// - The tail (p99) of a loaded machine is its hiccups, not the server: beside two hogs one run's p99 is 40 % above an
//   identical run's as often as below. compare reports that honestly (not significant: the per-second p99s of both
//   runs scatter alike), and this test asserts C worse on throughput, p50 and p90 (tested on per-second means) only,
//   not on p99, which a hiccup in A may mask.
// - The gate needs BOTH significance and a change beyond 10 %: identical servers may differ significantly by a few
//   per cent under changing load (p50 100 vs 101 ms), which the gate rightly ignores.
// The waits poll for the runs' end with a generous limit: the runs are bounded by their duration, not by speed.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { request, until, tempDir } = require('@lab/test-kit');
const { startDriver, stopDriver } = require('./driver-process');
const { runCompare } = require('./compare-helper');
const { serveOnPort0 } = require('./port0-server');
const { readRun } = require('../src/compare/read-run');
const { compareRuns, VERDICT } = require('../src/compare/compare-runs');

const BASE_DELAY_MS = 100;
const SLOW_DELAY_MS = BASE_DELAY_MS * 1.3; // the planted 30 % slowdown
const CONNECTIONS = 8;
const SECONDS = 8;
const GIVE_UP_MS = 300000;

/** /healthz, /info, and GET /wait answered after target.delayMs on a timer. */
async function startTimerServer(t) {
  const target = { delayMs: BASE_DELAY_MS };
  target.url = await serveOnPort0(t, (req, res) => {
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return answer(200, { status: 'ok' });
    if (req.url === '/info') return answer(200, { service: 'timer', runtime: { name: 'node', version: process.versions.node } });
    if (req.url !== '/wait') return answer(404, { error: 'no route' });
    setTimeout(() => answer(200, { waitedMs: target.delayMs }), target.delayMs);
  });
  return target;
}

test('compare finds a planted 30 % slowdown between recorded runs and no regression between two runs of one server', async (t) => {
  const target = await startTimerServer(t);
  const dir = tempDir('compare-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'suites'));
  const scenario = { name: 'timer-wait', target: 'timer', method: 'GET', path: '/wait', connections: CONNECTIONS, durationSeconds: SECONDS, maxRequests: 100000, expect: 'status' };
  fs.writeFileSync(path.join(dir, 'suites', 'timer.json'), JSON.stringify({ scenarios: [scenario] }));
  const resultsDir = path.join(dir, 'results');
  const driver = await startDriver({ PORT: '0', HOST: '127.0.0.1', LOAD_SUITE: 'none', LOAD_TARGETS: `timer=${target.url}`, LOAD_SUITES_DIR: path.join(dir, 'suites'), RESULTS_DIR: resultsDir, PROMETHEUS_URL: 'none' });
  t.after(() => stopDriver(driver));

  const record = async (delayMs) => {
    target.delayMs = delayMs;
    assert.strictEqual((await request(`${driver.url}/runs?suite=timer`, { method: 'POST' })).status, 202);
    const run = await until('the run ended', GIVE_UP_MS, async () => {
      const status = (await request(`${driver.url}/runs/latest`)).json;
      return { done: !['waiting', 'running'].includes(status.state), value: status, why: status.state };
    });
    assert.strictEqual(run.state, 'passed', JSON.stringify(run));
    return path.basename(run.resultsDir);
  };
  const a = await record(BASE_DELAY_MS);
  const b = await record(BASE_DELAY_MS);
  const c = await record(SLOW_DELAY_MS);

  // The CLI first, so its table is printed whatever the assertions below find.
  const slowCli = await runCompare([a, c], { RESULTS_DIR: resultsDir });
  t.diagnostic(`compare A C:\n${slowCli.stdout}${slowCli.stderr}`);
  const sameCli = await runCompare([a, b], { RESULTS_DIR: resultsDir });
  t.diagnostic(`compare A B:\n${sameCli.stdout}${sameCli.stderr}`);

  const verdicts = (report) => Object.fromEntries(report.scenarios[0].metrics.map((m) => [m.metric, m.verdict]));
  const slower = compareRuns(readRun(a, resultsDir), readRun(c, resultsDir));
  const rows = JSON.stringify(slower.scenarios, null, 1);
  assert.deepStrictEqual(slower.scenarios.map((s) => s.name), ['timer-wait']);
  const found = verdicts(slower);
  assert.deepStrictEqual([found.requestsPerSecond, found.latencyP50Ms, found.latencyP90Ms], [VERDICT.worse, VERDICT.worse, VERDICT.worse], rows);
  const gated = slower.regressions.map((r) => r.metric);
  for (const metric of ['requests/s', 'latency p50 ms', 'latency p90 ms']) assert.ok(gated.includes(metric), `${metric} not gated: ${rows}`);
  assert.strictEqual(slowCli.status, 1, slowCli.stdout + slowCli.stderr);
  assert.match(slowCli.stdout, /REGRESSION: timer-wait requests\/s -\d/);
  assert.match(slowCli.stdout, /REGRESSION: timer-wait latency p50 ms \+\d/);
  assert.ok(fs.statSync(path.join(resultsDir, c, 'compare.html')).size > 0);

  // Two runs of one server: throughput and the median, which the timer holds, must not regress. Their tails are the
  // machine's: with make test's image build beside it, B's p90 came out 38 % above A's (145 against 105 ms, p = 0.007)
  // while their medians were 101 and 105. compare was right to call that worse; the test cannot ask the machine to
  // stay as it was, so it holds the CLI to exactly the library's verdict instead.
  const same = compareRuns(readRun(a, resultsDir), readRun(b, resultsDir));
  const sameRows = JSON.stringify(same.scenarios, null, 1);
  const sameGated = same.regressions.map((r) => r.metric);
  for (const metric of ['requests/s', 'latency p50 ms']) assert.ok(!sameGated.includes(metric), `${metric} gated between two runs of one server: ${sameRows}`);
  assert.strictEqual(sameCli.status, same.regressions.length ? 1 : 0, sameCli.stdout + sameCli.stderr);
  if (same.regressions.length === 0) assert.match(sameCli.stdout, /no significant regression beyond 10 %/);
  for (const r of same.regressions) assert.match(sameCli.stdout, new RegExp(`REGRESSION: timer-wait ${r.metric.replace(/[/]/g, '\\/')} `));
});
