'use strict';
// The report's data extraction and HTML without a browser: escaping, a scenario without server series, every
// threshold shown with its outcome, the ranking, the CLI's refusals. report-browser.test.js opens a real run's report.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tempDir } = require('@lab/test-kit');
const { writeReport } = require('../src/report');
const { readRun } = require('../src/report/read-run');
const { buildModel } = require('../src/report/model');
const { escapeHtml, safeJson } = require('../src/report/html-text');

const HOSTILE = '<script>alert("x")</script>&\'';
const T0 = 1800000000; // unix s

function scenarioFile(name, approach, rps, server, extra = {}) {
  return Object.assign({
    scenario: { name, target: 'node-async', method: 'GET', path: `/run/stringify?approach=${approach}&size=20`, run: { workload: 'stringify', approach, params: { size: 20 } }, connections: 2, durationSeconds: 2 },
    url: 'http://127.0.0.1:1/run/stringify',
    window: { startedAt: new Date(T0 * 1000).toISOString(), endedAt: new Date((T0 + 2) * 1000).toISOString(), startMs: T0 * 1000, endMs: (T0 + 2) * 1000 },
    result: { requests: { total: rps * 2, average: rps }, latency: { p50: 1, p90: 2, p99: 3.25, max: 4 }, errors: 0, timeouts: 0, non2xx: 0 },
    perSecond: [
      { second: 0, requests: rps, non2xx: 0, latencyMeanMs: 1, latencyP50Ms: 1, latencyP99Ms: 3, latencyMaxMs: 4 },
      { second: 1, requests: 0, non2xx: 0, latencyMeanMs: null, latencyP50Ms: null, latencyP99Ms: null, latencyMaxMs: null },
    ],
    driver: { eventLoopLagP99Ms: 1, eventLoopLagMaxMs: 2, cpuBusy: 0.1, limits: { cpuBusy: 0.9, eventLoopLagP99Ms: 50 }, saturated: false, reasons: [] },
    littlesLaw: { connections: 2, requestsPerSecond: rps, latencyMeanMs: 1, inFlight: 2, ratio: 1, tolerance: 0.25, holds: true },
    checks: { checked: rps * 2, invalid: 0, failedRuns: 0, samples: [] },
    passed: true,
    problems: [],
    server,
    thresholds: [],
    flags: [],
  }, extra);
}

/** A run folder of 2 scenarios of one workload: the first with server series, the second without, hostile strings in both. */
function writeFixture() {
  const dir = tempDir('report-unit-');
  const run = path.join(dir, '2026-01-01T00-00-00-000Z-unit');
  fs.mkdirSync(run);
  const lag = [[T0, 0.002], [T0 + 1, 0.0125], [T0 + 2, 0.004]];
  const server = {
    prometheus: 'http://p:9090', available: true, window: { start: T0, end: T0 + 2 }, stepSeconds: 1,
    jobs: { 'node-async': { lagP99Seconds: lag, lagMaxSeconds: lag, cpuCores: [[T0, 0.5]], rssBytes: [[T0, 1048576 * 100]], eluRatio: [[T0, 0.25], [T0 + 1, 0.75]], gcPauseMaxSeconds: [[T0, 0], [T0 + 1, 0.0115]] } },
    run: null,
    elu: { 'node-async': 0.5 },
    gc: { 'node-async': { count: 12, totalMs: 30.5, maxMs: 11.5, p99Ms: 11.5, longestAt: new Date((T0 + 1) * 1000).toISOString() } },
    missing: {},
  };
  const thresholds = [
    { name: 'errors', description: 'connection errors and timeouts', bound: 'max', limit: 0, actual: 0, passed: true },
    { name: 'minRequestsPerSecond', description: 'requests per second (average)', bound: 'min', limit: 1000, actual: 50, passed: false },
    { name: 'serverLagP99Ms', description: 'server lag', bound: 'max', limit: 100, actual: null, passed: null, why: `no server series ${HOSTILE}` },
  ];
  const files = [
    scenarioFile('slow', 'native', 50, server),
    scenarioFile('quick', 'async', 500, { prometheus: 'http://p:9090', available: false, error: `connect ECONNREFUSED ${HOSTILE}` }, {
      passed: false, problems: [`threshold minRequestsPerSecond 50 < 1000 ${HOSTILE}`], thresholds, flags: ["Little's law broken: 9 in flight for 2 connections"],
    }),
  ];
  files.forEach((f, i) => fs.writeFileSync(path.join(run, `0${i + 1}-${f.scenario.name}.json`), JSON.stringify(f)));
  fs.writeFileSync(path.join(run, 'run.json'), JSON.stringify({
    suite: 'unit', description: HOSTILE, startedAt: 'start', endedAt: 'end', verdict: 'failed',
    machine: { cpus: 2, cpuModel: 'CPU', memoryBytes: 2 ** 30, platform: 'linux', loadDriverNode: '24.21.0' },
    lab: { commit: 'abc123', images: { 'node-async': 'lab/node-async:1.2.3' } }, prometheus: 'http://p:9090',
    targets: { 'node-async': { runtime: { name: 'node', version: '24.21.0' }, libraries: { express: '5.3.0', [HOSTILE]: '1' } } },
  }));
  return run;
}

test('the model ranks approaches of a workload by requests/s and takes server peaks and series from the result files', () => {
  const model = buildModel(readRun(writeFixture()));
  assert.deepStrictEqual(model.ranking.map((g) => [g.target, g.workload, g.rows.map((r) => r.approach)]), [['node-async', 'stringify', ['async', 'native']]]);
  const [slow, quick] = model.sections;
  assert.strictEqual(slow.serverLagP99PeakMs, 12.5);
  assert.deepStrictEqual(slow.charts.map((c) => c.kind), ['lag', 'resources', 'client']);
  const lag = slow.charts[0];
  assert.deepStrictEqual(lag.data[0], [T0, T0 + 1, T0 + 2], 'client seconds (at their ends) and server samples share one time axis');
  assert.deepStrictEqual(lag.data[1], [2, 12.5, 4], 'server lag in ms');
  assert.deepStrictEqual(lag.data[3], [null, 3, null], 'client p99 only where a second had answers');
  assert.deepStrictEqual(lag.data[4], [0, 11.5, null], "the GC's longest pause of each second beside the lag, in ms");
  assert.deepStrictEqual(slow.charts[1].series.map((x) => x.label), ['server CPU (cores)', 'server RSS (MiB)', 'server ELU (busy share)']);
  assert.deepStrictEqual(slow.stall.gc, { count: 12, totalMs: 30.5, maxMs: 11.5, p99Ms: 11.5, longestAt: new Date((T0 + 1) * 1000).toISOString() });
  assert.strictEqual(slow.stall.elu, 0.5);
  assert.strictEqual(slow.stall.lagKind, 'loop');
  assert.strictEqual(quick.stall.elu, null);
  assert.match(quick.stall.eluMissing, /^Prometheus unavailable: connect ECONNREFUSED/, 'a missing figure says why');
  assert.deepStrictEqual(slow.charts.map((c) => c.range), [[T0, T0 + 2], [T0, T0 + 2], [T0, T0 + 2]], 'one time range for the scenario\'s charts');
  assert.deepStrictEqual(slow.charts[2].data[4], [50, 0], 'requests/s for every second, zero included');
  assert.strictEqual(slow.serverNotice, null);
  assert.deepStrictEqual(quick.charts.map((c) => c.kind), ['client'], 'no server charts without server series');
  assert.match(quick.serverNotice, /^Server series unavailable: connect ECONNREFUSED/);
  assert.strictEqual(quick.serverLagP99PeakMs, null);
});

test('report.html escapes every string of the run, shows the thresholds and says where server series are missing', () => {
  const run = writeFixture();
  const file = writeReport(run);
  assert.strictEqual(file, path.join(run, 'report.html'));
  const html = fs.readFileSync(file, 'utf8');
  assert.ok(!html.includes(HOSTILE), 'the hostile string never appears raw');
  assert.ok(!html.includes('<script>alert'), 'no injected script element');
  assert.ok(html.includes(escapeHtml(HOSTILE)), 'it appears escaped');
  assert.strictEqual(html.match(/<script[\s>]/g).length, 3, 'only the report\'s own scripts: data, uPlot, drawing');
  assert.match(html, /lab\/node-async:1\.2\.3/);
  assert.match(html, /<code>abc123<\/code>/);
  assert.match(html, /Server series unavailable: connect ECONNREFUSED &lt;script&gt;/);
  assert.match(html, /<tr data-threshold="errors">.*passed/);
  assert.match(html, /<tr data-threshold="minRequestsPerSecond">.*≥ 1000.*>50<.*FAILED/);
  assert.match(html, /<tr data-threshold="serverLagP99Ms">.*not evaluated: no server series &lt;script&gt;/);
  assert.match(html, /⚑ Little&#39;s law broken: 9 in flight/);
  assert.ok(!/https?:\/\/(?!p:9090|127\.0\.0\.1)/.test(html.replace(/<script>[^]*?<\/script>/g, '')), 'no link to anything outside the page');
});

test("a JVM scenario shows its stand-ins: the wait for a handler thread for the lag, its GC pauses, and why it has no ELU", () => {
  const dir = tempDir('report-jvm-');
  const run = path.join(dir, '2026-01-01T00-00-00-000Z-jvm');
  fs.mkdirSync(run);
  const wait = [[T0, 0.004], [T0 + 1, 0.25], [T0 + 2, 0.001]];
  const server = {
    prometheus: 'http://p:9090', available: true, window: { start: T0, end: T0 + 2 }, stepSeconds: 1, run: null,
    jobs: { 'jvm-serializer': { threadWaitP99Seconds: wait, threadWaitMaxSeconds: wait, gcPauseMaxSeconds: [[T0 + 1, 0.021]], cpuCores: [[T0, 1]], rssBytes: [[T0, 2 ** 30]] } },
    elu: { 'jvm-serializer': null },
    gc: { 'jvm-serializer': { count: 3, totalMs: 40, maxMs: 21, p99Ms: 21, longestAt: new Date((T0 + 1) * 1000).toISOString() } },
    missing: { 'jvm-serializer': { elu: 'exports no lab_event_loop_busy_seconds_total (no event loop, or not scraped in the window)' } },
  };
  const file = scenarioFile('serde', 'json', 20, server);
  file.scenario = Object.assign({}, file.scenario, { target: 'jvm-serializer', path: '/run/serde?approach=json&size=20', run: { workload: 'serde', approach: 'json', params: { size: 20 } } });
  fs.writeFileSync(path.join(run, '01-serde.json'), JSON.stringify(file));
  fs.writeFileSync(path.join(run, 'run.json'), JSON.stringify({ suite: 'jvm', verdict: 'passed', targets: {} }));
  const [section] = buildModel(readRun(run)).sections;
  assert.strictEqual(section.serverLagP99PeakMs, 250, "the thread wait's worst second stands in for the lag");
  assert.strictEqual(section.stall.lagKind, 'threadWait');
  assert.deepStrictEqual(section.charts[0].series.map((x) => x.label), ['JVM thread wait p99 (ms)', 'JVM thread wait max (ms)', 'server GC longest pause (ms)']);
  const html = fs.readFileSync(writeReport(run), 'utf8');
  assert.match(html, /Server handler-thread wait \(the JVM&#39;s stand-in for event-loop lag: how long a request waited for a thread\) of jvm-serializer, worst second: p99 <span data-field="serverLagP99PeakMs">250<\/span> ms/);
  assert.match(html, /<td class="num" data-field="serverLagP99PeakMs" data-lag-kind="threadWait"[^>]*>250 <small>thread wait<\/small><\/td>/, 'the ranking marks the stand-in');
  assert.match(html, /GC pauses: <span data-field="gcCount">3<\/span>, <span data-field="gcTotalMs">40<\/span> ms in all, longest <span data-field="gcMaxMs">21<\/span> ms/);
  assert.match(html, /<span data-field="serverElu">—<\/span> <small class="missing" data-missing="elu">\(exports no lab_event_loop_busy_seconds_total/);
});

test('chart data embedded in the page cannot close its script element', () => {
  assert.strictEqual(safeJson({ a: '</script><b>' }), '{"a":"\\u003c/script>\\u003cb>"}');
  assert.deepStrictEqual(JSON.parse(safeJson({ a: '</script>\u2028' })), { a: '</script>\u2028' });
});

test('make-report writes the report, and refuses a missing folder or one that is not a run with exit 2', () => {
  const cli = path.join(__dirname, '..', 'src', 'report', 'make-report.js');
  const run = writeFixture();
  const ok = spawnSync(process.execPath, [cli, run], { encoding: 'utf8' });
  assert.strictEqual(ok.status, 0, ok.stderr);
  assert.strictEqual(ok.stdout.trim(), path.join(run, 'report.html'));
  const missing = spawnSync(process.execPath, [cli, path.join(run, 'nope')], { encoding: 'utf8' });
  assert.strictEqual(missing.status, 2);
  assert.match(missing.stderr, /nope: no such folder/);
  const notARun = spawnSync(process.execPath, [cli, tempDir('not-a-run-')], { encoding: 'utf8' });
  assert.strictEqual(notARun.status, 2);
  assert.match(notARun.stderr, /holds no scenario results/);
  assert.strictEqual(spawnSync(process.execPath, [cli], { encoding: 'utf8' }).status, 2);
});

test('an open loop shows its schedule and both latencies, a warm-up what it did outside the figures', () => {
  const dir = tempDir('report-open-loop-');
  const run = path.join(dir, '2026-01-01T00-00-00-000Z-open');
  fs.mkdirSync(run);
  const openLoop = { arrivalRate: 4, intended: 80, sent: 80, sentLate: 2, latencyFromIntendedMs: { p50: 110, p90: 240, p99: 612.5, max: 700, mean: 150 }, latencyFromSendMs: { p50: 95, p90: 120, p99: 131.25, max: 140, mean: 100 } };
  const file = scenarioFile('open', 'native', 4, { prometheus: 'none', available: false, error: 'not asked' }, { openLoop, warmup: { seconds: 2, requests: 7, problems: [] } });
  fs.writeFileSync(path.join(run, '01-open.json'), JSON.stringify(file));
  fs.writeFileSync(path.join(run, 'run.json'), JSON.stringify({ suite: 'open', startedAt: 'start', endedAt: 'end', verdict: 'passed', targets: {} }));
  const html = fs.readFileSync(writeReport(run), 'utf8');
  assert.match(html, /data-open-loop="4">Open loop: 4 requests a second on a fixed schedule, 80 of 80 sent \(2 late\)/);
  assert.match(html, /p99 <span data-field="openLoopP99">612\.5 \/ 131\.25<\/span>/);
  assert.match(html, /Warm-up before the window: 2 s, 7 requests, kept out of every figure/);
});
