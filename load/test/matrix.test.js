'use strict';
// make matrix without building an image: its settings and the interleaved order of its steps (docker/matrix/plan.js),
// and its report on recorded runs (src/matrix/): medians and spreads over the repeats, a change found where the
// figures differ and none where they do not, with every p-value of the matrix corrected together; a version that
// could not run says so; the page in Chromium draws what the report holds and fetches nothing.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { tempDir } = require('@lab/test-kit');
const { settingsOf, stepsOf } = require('@lab/docker/matrix/plan');
const { report } = require('../src/matrix/matrix-report');
const { holmAdjusted } = require('../src/matrix/holm');
const { writeMatrix, spread } = require('./matrix-fixture');
const { findChromium, launchBrowser, watchedPage, BROWSER_TIMEOUT_MS } = require('./report-browser');

test('the settings: defaults, the pinned version always run, and a bad value refused naming what is allowed', () => {
  const defaults = settingsOf({});
  assert.deepStrictEqual([defaults.node, defaults.java, defaults.suite, defaults.repeats], [['18', '20', '22', '24', '26'], ['17', '21', '25'], 'matrix', 3]);
  assert.deepStrictEqual(defaults.pinned, { node: '24', java: '25' });
  assert.deepStrictEqual(settingsOf({ NODE: '22,26', JAVA: 'none' }).node, ['24', '22', '26'], 'the pinned version joins as the baseline');
  assert.deepStrictEqual(settingsOf({ NODE: '22,26', JAVA: 'none' }).java, []);
  assert.throws(() => settingsOf({ NODE: '19' }), /NODE: 19 is not a version the matrix knows; allowed: 18 20 22 24 26/);
  assert.throws(() => settingsOf({ JAVA: '21 21' }), /listed twice/);
  assert.throws(() => settingsOf({ REPEATS: '0' }), /REPEATS must be an integer in \[1, 20\]/);
  assert.throws(() => settingsOf({ SUITE: '../x' }), /SUITE must be a suite's name/);
  assert.throws(() => settingsOf({ NODE: 'none', JAVA: 'none' }), /nothing to run/);
});

test('the steps are interleaved: every version once, then every version again', () => {
  const steps = stepsOf(settingsOf({ NODE: '22 24', JAVA: '21', REPEATS: '2' }));
  assert.deepStrictEqual(steps.map((s) => s.id), ['node-22-r1', 'node-24-r1', 'java-25-r1', 'java-21-r1', 'node-22-r2', 'node-24-r2', 'java-25-r2', 'java-21-r2']);
});

test("Holm's correction: step-down, monotone, capped at 1, nulls kept", () => {
  assert.deepStrictEqual(holmAdjusted([0.01, 0.04, null, 0.03]), [0.03, 0.06, null, 0.06]);
  assert.deepStrictEqual(holmAdjusted([0.5, 0.9]), [1, 1]);
});

/** Ten seconds of a scenario at `rate` requests a second, with a little spread. */
const seconds = (rate) => Array.from({ length: 10 }, (_, i) => rate + (i % 3) - 1);

function fixture(dir) {
  const settings = { node: ['24', '22', '26'], java: ['25', '17'], suite: 'matrix', repeats: 2, pinned: { node: '24', java: '25' } };
  const stringify = (rate, runMs, blockMs) => ({ name: 'node-async-stringify-native', target: 'node-async', run: { workload: 'stringify', approach: 'native', params: { size: 10000 } }, perSecond: seconds(rate), p50Ms: 1000 / rate, runMs, blockMs });
  const fast = (rate, runSamplesMs) => ({ name: 'node-async-stringify-fast', target: 'node-async', run: { workload: 'stringify', approach: 'fast', params: { size: 10000 } }, perSecond: seconds(rate), p50Ms: 1000 / rate, runMs: 900 / rate, blockMs: 8, runSamplesMs });
  // fast parse runs on 24 and 22 alike, and Node 26 answers it with errors in every repeat.
  const parse = (passed) => ({ name: 'node-async-parse-fast', target: 'node-async', run: { workload: 'parse', approach: 'fast', params: { size: 10000 } }, perSecond: seconds(20), p50Ms: 50, runMs: 45, blockMs: 9, passed });
  const serde = (rate) => ({ name: 'jvm-serializer-serde-json', target: 'jvm-serializer', run: { workload: 'serde', approach: 'json', params: { size: 10000 } }, perSecond: seconds(rate), p50Ms: 1000 / rate, runMs: 800 / rate, blockMs: 0 });
  const steps = [];
  for (const repeat of [1, 2]) {
    // Node 22: native stringify about half as fast as on 24; Node 26 like 24; fast the same everywhere.
    steps.push({ id: `node-24-r${repeat}`, runtime: 'node', line: '24', repeat, runtimeVersion: 'node 24.21.0', scenarios: [stringify(100 + repeat, 9.8, 300), fast(50), parse(true)] });
    steps.push({ id: `node-22-r${repeat}`, runtime: 'node', line: '22', repeat, runtimeVersion: 'node 22.23.3', scenarios: [stringify(50 + repeat, 19.7, 600), fast(50), parse(true)] });
    // Node 26's fast: the same mean time of a run (a few long runs), most runs a tenth faster.
    steps.push({ id: `node-26-r${repeat}`, runtime: 'node', line: '26', repeat, runtimeVersion: 'node 26.12.1', scenarios: [stringify(100 + repeat, 9.8, 310), fast(50, spread(16.2).concat([36, 36, 36])), parse(false)] });
    steps.push({ id: `java-25-r${repeat}`, runtime: 'java', line: '25', repeat, runtimeVersion: 'jvm 25.0.3', scenarios: [serde(40)] });
    steps.push({ id: `java-17-r${repeat}`, runtime: 'java', line: '17', repeat, error: 'the jvm-serializer image for Java 17 did not build: exit 1' });
  }
  writeMatrix(dir, settings, steps);
}

test('the report on recorded runs: medians over repeats, a change found and none invented, a version that could not run said', () => {
  const dir = path.join(tempDir('load-matrix-'), 'matrix-1');
  fixture(dir);
  const { report: r, text } = report(dir);
  const node = r.runtimes.find((x) => x.runtime === 'node');
  assert.deepStrictEqual(node.versions, { 24: 'node 24.21.0', 22: 'node 22.23.3', 26: 'node 26.12.1' });
  const native = node.scenarios.find((s) => s.name === 'node-async-stringify-native');
  assert.deepStrictEqual([native.workload, native.approach, native.byLine['24'].passedRepeats], ['stringify', 'native', 2]);
  assert.strictEqual(native.byLine['22'].longestBlockMs.median, 600);
  const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
  assert.deepStrictEqual([native.byLine['24'].requestsPerSecond.min, native.byLine['24'].requestsPerSecond.max], [mean(seconds(101)), mean(seconds(102))], 'the slower and faster repeat');
  const verdict = (s, line, key) => s.changes[line].find((c) => c.key === key).verdict;
  assert.strictEqual(verdict(native, '22', 'runMeanMs'), 'worse', 'twice the time of a run, on every run');
  assert.strictEqual(native.changes['22'].length, 1, 'throughput is not tested twice where the runs are timed');
  assert.strictEqual(verdict(native, '26', 'runMeanMs'), 'no significant change');
  const fast = node.scenarios.find((s) => s.name === 'node-async-stringify-fast');
  assert.strictEqual(verdict(fast, '22', 'runMeanMs'), 'no significant change', 'equal figures are no change');
  // The change shown is that of the runs the test compares: -10 % on Node 26, where the repeats' means did not move.
  const fast26 = fast.changes['26'].find((c) => c.key === 'runMeanMs');
  assert.deepStrictEqual([fast26.verdict, Math.round(fast26.change * 100)], ['better', -10], JSON.stringify(fast26));
  for (const s of node.scenarios) {
    for (const c of Object.values(s.changes).flat()) {
      if (c.verdict === 'better' || c.verdict === 'worse') assert.strictEqual(c.change < 0 !== c.higherIsBetter, c.verdict === 'better', `${s.name}: ${JSON.stringify(c)}`);
    }
  }
  // A scenario a version could not run: no figure, no test, and why, in the table's text.
  const parse = node.scenarios.find((s) => s.name === 'node-async-parse-fast');
  assert.deepStrictEqual([parse.byLine['26'].passedRepeats, verdict(parse, '26', 'runMeanMs'), verdict(parse, '22', 'runMeanMs')], [0, 'no data', 'no significant change']);
  assert.match(text, /could not run node-async-parse-fast on node 26: 3 responses not validated/);
  assert.doesNotMatch(text, /could not run jvm-serializer-serde-json on java 17/, 'a step that did not run is said once, by the step');
  // Every test of the matrix is counted and corrected together.
  assert.strictEqual(r.comparisons, 5);
  assert.strictEqual(r.expectedFalsePositives, 5 * 0.05);
  const change = native.changes['22'].find((c) => c.key === 'runMeanMs');
  assert.ok(change.pAdjusted >= change.p && change.pAdjusted < 0.05, JSON.stringify(change));
  const java = r.runtimes.find((x) => x.runtime === 'java');
  assert.deepStrictEqual(java.failedSteps.map((f) => f.id), ['java-17-r1', 'java-17-r2']);
  const serde = java.scenarios[0];
  assert.strictEqual(serde.byLine['17'].passedRepeats, 0);
  assert.match(serde.byLine['17'].problems[0], /did not build/);
  assert.strictEqual(verdict(serde, '17', 'runMeanMs'), 'no data');
  assert.match(text, /could not run java-17-r1: the jvm-serializer image for Java 17 did not build/);
  assert.match(text, /5 comparisons against the pinned versions, Holm-corrected/);
});

test('matrix.html in Chromium: a chart per workload drawing the medians, the tables, no request', { skip: findChromium() ? false : 'no chromium' }, async (t) => {
  const dir = path.join(tempDir('load-matrix-html-'), 'matrix-1');
  fixture(dir);
  const { html, report: r } = report(dir);
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const failures = [];
  const requests = [];
  const page = await watchedPage(browser, (url) => url.startsWith('file:'), 'a request outside the page', { failures, requests });
  await page.goto(`file://${html}`, { waitUntil: 'load', timeout: BROWSER_TIMEOUT_MS });
  /* global document -- the page's */
  const seen = await page.evaluate(() => ({
    workloads: [...document.querySelectorAll('figure')].map((f) => f.dataset.workload),
    points: [...document.querySelectorAll('circle')].map((c) => [c.dataset.series, c.dataset.x, Number(c.dataset.median)]),
    cannot: [...document.querySelectorAll('.cannot')].map((e) => e.textContent),
    comparisons: document.querySelector('#comparisons').textContent,
  }));
  assert.deepStrictEqual(seen.workloads, ['stringify', 'parse', 'serde']);
  const native = r.runtimes[0].scenarios[0];
  for (const line of ['24', '22', '26']) assert.ok(seen.points.some(([series, x, median]) => series === 'native' && x === `Node ${line}` && median === native.byLine[line].runMeanMs.median), `native on Node ${line}`);
  assert.ok(seen.cannot.some((c) => /could not run: java-17-r1/.test(c)), seen.cannot.join());
  assert.ok(seen.cannot.some((c) => /could not run: 3 responses not validated/.test(c)), seen.cannot.join());
  assert.ok(seen.cannot.every((c) => /could not run: (java-17-r1|3 responses not validated)/.test(c)), seen.cannot.join());
  assert.strictEqual(seen.comparisons, '5');
  assert.deepStrictEqual(failures, []);
  assert.strictEqual(requests.length, 1, 'only the page itself');
});
