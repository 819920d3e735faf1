'use strict';
// The statistics of `make compare` against values known independently: textbook exact p-values, a brute-force
// enumeration of every assignment of the ranks, and normal-approximation values computed apart with Python's
// math.erfc (ranks by counting, the tie-corrected variance written out again). Then what compareRuns makes of them.
const test = require('node:test');
const assert = require('node:assert');
const { mannWhitney, normalCdf, midRanks, EXACT_MAX_SAMPLES } = require('../src/compare/mann-whitney');
const { compareRuns, parseMaxRegression, relativeChange, VERDICT, DEFAULT_MAX_REGRESSION } = require('../src/compare/compare-runs');
const { scenarioResult } = require('./compare-helper');

const close = (actual, expected, tolerance, what) => assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected}`);
const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

/** Two-sided exact p by listing every way to give n1 of the values to a: the reference for the DP in mann-whitney.js. */
function bruteForceP(a, b) {
  const all = a.concat(b);
  const rank = (v) => all.filter((x) => x < v).length + (all.filter((x) => x === v).length + 1) / 2;
  const ranks = all.map(rank);
  const observed = a.map(rank).reduce((s, r) => s + r, 0);
  let total = 0;
  let lower = 0;
  let upper = 0;
  const walk = (start, left, sum) => {
    if (left === 0) {
      total++;
      if (sum <= observed + 1e-9) lower++;
      if (sum >= observed - 1e-9) upper++;
      return;
    }
    for (let i = start; i <= ranks.length - left; i++) walk(i + 1, left - 1, sum + ranks[i]);
  };
  walk(0, a.length, 0);
  return Math.min(1, (2 * Math.min(lower, upper)) / total);
}

test('fully separated samples: the textbook exact p-values 2 / C(n1 + n2, n1)', () => {
  for (const [n1, n2, p] of [[3, 3, 2 / 20], [4, 4, 2 / 70], [5, 5, 2 / 252], [3, 4, 2 / 35], [6, 6, 2 / 924]]) {
    const lowA = mannWhitney(range(n1), range(n2, 100));
    close(lowA.p, p, 1e-12, `${n1} below ${n2}`);
    assert.deepStrictEqual([lowA.uA, lowA.uB, lowA.method, lowA.direction], [0, n1 * n2, 'exact', 1]);
    const highA = mannWhitney(range(n1, 100), range(n2));
    close(highA.p, p, 1e-12, `${n1} above ${n2}`);
    assert.strictEqual(highA.direction, -1);
  }
  // A sample of one against one can never be significant.
  assert.strictEqual(mannWhitney([1], [2]).p, 1);
});

test('identical samples, and samples of one value, give p = 1 and no direction', () => {
  const same = mannWhitney([10, 12, 11, 13, 9], [9, 13, 11, 12, 10]);
  assert.deepStrictEqual([same.p, same.direction, same.uA, same.uB], [1, 0, 12.5, 12.5]);
  const constant = mannWhitney([5, 5, 5], [5, 5]);
  assert.deepStrictEqual([constant.p, constant.direction], [1, 0]);
  const big = range(40).map((i) => i % 7);
  assert.strictEqual(mannWhitney(big, big.slice().reverse()).p, 1, 'the normal approximation of the same sample');
});

test('mid-ranks share the ranks of their tie', () => {
  assert.deepStrictEqual(midRanks([30, 10, 20, 20, 10, 10]), { ranks: [6, 2, 4.5, 4.5, 2, 2], ties: [3, 2, 1] });
});

test('exact p-values, ties included, match a brute-force enumeration of every assignment', () => {
  const cases = [
    [[1, 2, 2, 3, 5], [2, 4, 4, 6, 7, 7]],
    [[60, 62, 61, 60, 59, 63], [64, 60, 65, 66, 62, 67]], // throughput-like whole counts
    [[20.1, 20.4, 20.2, 21.9], [20.3, 20.5, 26.0, 26.1, 26.2]],
    [[0, 0, 80, 79, 81], [80, 80, 78, 0, 82, 79]], // silent seconds
    [[1, 1, 1, 2], [1, 2, 2, 2]],
  ];
  for (const [a, b] of cases) {
    const result = mannWhitney(a, b);
    assert.strictEqual(result.method, 'exact');
    close(result.p, bruteForceP(a, b), 1e-12, JSON.stringify([a, b]));
  }
});

test(`beyond ${EXACT_MAX_SAMPLES} samples: the normal approximation with tie and continuity corrections`, () => {
  // Odd ranks against even ranks, 31 each: R1 = 961, mean 976.5, sd = sqrt(31·31·63/12); Python: 0.8327479062272573.
  const interleaved = mannWhitney(range(31).map((i) => 2 * i + 1), range(31).map((i) => 2 * i + 2));
  assert.strictEqual(interleaved.method, 'normal');
  close(interleaved.p, 0.8327479062272573, 1e-6, 'interleaved');
  // Three values, heavily tied (35 a side): Python, tie-corrected: 0.11608932753818146.
  const tied = mannWhitney([].concat(Array(10).fill(1), Array(15).fill(2), Array(10).fill(3)), [].concat(Array(5).fill(1), Array(15).fill(2), Array(15).fill(3)));
  close(tied.p, 0.11608932753818146, 1e-6, 'tied');
  assert.strictEqual(tied.direction, 1);
  // Far apart: p vanishing, never below 0 or NaN.
  const apart = mannWhitney(range(40), range(40, 1000));
  assert.ok(apart.p > 0 && apart.p < 1e-12, String(apart.p));
  // Known values of the normal distribution function.
  close(normalCdf(1.96), 0.9750021048517795, 1e-7, 'Φ(1.96)');
  close(normalCdf(-1), 1 - 0.8413447460685429, 1e-7, 'Φ(-1)');
});

test('bad samples are refused, not tested', () => {
  assert.throws(() => mannWhitney([], [1]), /a must be a non-empty array/);
  assert.throws(() => mannWhitney([1, null], [1]), /a holds null/);
  assert.throws(() => mannWhitney([1], [NaN]), /b holds NaN/);
});

const run = (id, scenarios) => ({ id, dir: `/runs/${id}`, suite: 'fixture', startedAt: null, scenarios: new Map(scenarios.map((s) => [s.scenario.name, s])) });
const seconds = (n, requests, ms) => range(n).map(() => [requests, ms]);
const jitter = (list) => list.map(([r, ms], i) => [r + (i % 3), ms === null ? null : ms + (i % 4) * 0.1]);

test('compareRuns: directions, the gate beyond MAX_REGRESSION, scenarios in one run only', () => {
  const a = run('a', [scenarioResult('steady', jitter(seconds(8, 100, 20))), scenarioResult('gone', seconds(3, 1, 1))]);
  const b = run('b', [scenarioResult('steady', jitter(seconds(8, 70, 26))), scenarioResult('new', seconds(3, 1, 1))]);
  const report = compareRuns(a, b, DEFAULT_MAX_REGRESSION);
  assert.deepStrictEqual([report.onlyInA, report.onlyInB], [['gone'], ['new']]);
  const rows = report.scenarios[0].metrics;
  assert.deepStrictEqual(rows.map((r) => [r.metric, r.verdict, r.regression]), [
    ['requestsPerSecond', VERDICT.worse, true],
    ['latencyP50Ms', VERDICT.worse, true],
    ['latencyP90Ms', VERDICT.worse, true],
    ['latencyP99Ms', VERDICT.worse, true],
    // Without the server's series (no Prometheus behind these runs) the lag has no data, and never gates.
    ['serverLagMaxMs', VERDICT.noData, false],
  ]);
  close(rows[0].change, -0.3, 0.01, 'throughput change');
  assert.strictEqual(report.regressions.length, 4);
  // The other way round, B is better, and nothing gates.
  const back = compareRuns(b, a);
  assert.deepStrictEqual(back.scenarios[0].metrics.slice(0, 4).map((r) => r.verdict), Array(4).fill(VERDICT.better));
  assert.deepStrictEqual(back.regressions, []);
  // Significantly worse but by less than MAX_REGRESSION: shown as worse, not gated.
  const tolerant = compareRuns(a, b, 0.5);
  assert.deepStrictEqual(tolerant.regressions, []);
  assert.deepStrictEqual(tolerant.scenarios[0].metrics.slice(0, 4).map((r) => r.verdict), Array(4).fill(VERDICT.worse));
});

test("compareRuns: the server's lag is compared second by second where both runs have it (make attach's A/B of a fix)", () => {
  const lag = (ms) => range(8).map((i) => ms + (i % 3));
  const before = run('a', [scenarioResult('closed-c4', jitter(seconds(8, 50, 20)), { lagMaxMs: lag(300) })]);
  const after = run('b', [scenarioResult('closed-c4', jitter(seconds(8, 50, 20)), { lagMaxMs: lag(12) })]);
  const row = compareRuns(before, after).scenarios[0].metrics.find((r) => r.metric === 'serverLagMaxMs');
  assert.deepStrictEqual([row.verdict, row.a, row.b, row.samplesA, row.samplesB], [VERDICT.better, 302, 14, 8, 8]);
  const worse = compareRuns(after, before).scenarios[0].metrics.find((r) => r.metric === 'serverLagMaxMs');
  assert.deepStrictEqual([worse.verdict, worse.regression], [VERDICT.worse, true]);
});

test('compareRuns: a silent second counts as zero throughput; a second without answers has no latency', () => {
  // B answered nothing in 6 of its 8 seconds: its throughput samples include those zeros (significantly worse),
  // while its latency samples are its 2 answered seconds only, the same as A's: no latency change.
  const a = run('a', [scenarioResult('s', jitter(seconds(8, 100, 20)))]);
  const b = run('b', [scenarioResult('s', jitter(seconds(8, 100, 20)).map((second, i) => (i % 4 ? [0, null] : second)))]);
  const rows = compareRuns(a, b).scenarios[0].metrics;
  assert.deepStrictEqual([rows[0].samplesA, rows[0].samplesB, rows[0].verdict], [8, 8, VERDICT.worse]);
  assert.deepStrictEqual([rows[1].samplesA, rows[1].samplesB, rows[1].verdict], [8, 2, VERDICT.same]);
  // No answered second at all: no latency to test.
  const none = run('n', [scenarioResult('s', seconds(4, 0, null))]);
  assert.strictEqual(compareRuns(a, none).scenarios[0].metrics[1].verdict, VERDICT.noData);
});

test('MAX_REGRESSION is a fraction in [0, 1); a percentage or a word is refused', () => {
  assert.strictEqual(parseMaxRegression(undefined), 0.1);
  assert.strictEqual(parseMaxRegression(''), 0.1);
  assert.strictEqual(parseMaxRegression('0.25'), 0.25);
  assert.strictEqual(parseMaxRegression('0'), 0);
  for (const bad of ['10', '1', '-0.1', 'abc', '10%', '0x1', ' ', 'NaN', 'Infinity']) assert.throws(() => parseMaxRegression(bad), /MAX_REGRESSION must be a fraction in \[0, 1\)/, bad);
  close(relativeChange(10, 13), 0.3, 1e-12, '10 -> 13');
  assert.deepStrictEqual([relativeChange(0, 0), relativeChange(0, 2)], [0, Infinity]);
});
