'use strict';
// A scenario's event-loop utilization and GC pauses, from Prometheus' answers recorded over a real node-async and a
// real jvm-serializer under load (each fixture's `recorded` says how), and what is missing said, never a zero made up.
const test = require('node:test');
const assert = require('node:assert');
const { runtimeFigures, quantileOf, growth, RAW } = require('../src/scenario/server-runtime');
const recorded = require('./fixtures/prometheus-runtime-node-async.json');
const recordedJvm = require('./fixtures/prometheus-runtime-jvm-serializer.json');

/** Answers each selector server-runtime asks with the recorded matrix (the test fails on any other selector). */
function recordedAnswers(answers, seconds) {
  const bySelector = Object.fromEntries(Object.entries(RAW).map(([name, metric]) => [`${metric}[${seconds}s]`, answers[name] ? answers[name].data.result : []]));
  return async (selector) => {
    assert.ok(selector in bySelector, `an unexpected selector: ${selector}`);
    return bySelector[selector];
  };
}

const matrix = (job, values, labels = {}) => [{ metric: Object.assign({ job }, labels), values: values.map(([t, v]) => [t, String(v)]) }];

test("a recorded window: mean utilization, every pause counted (a kind's series born in the window from zero), the longest and when", async () => {
  const figures = await runtimeFigures(recordedAnswers(recorded.answers, recorded.seconds), recorded.seconds, ['node-async']);
  // busy seconds 0.2009 -> 5.9194 between the scrapes at 794.695 and 801.699
  assert.strictEqual(figures.elu['node-async'], Math.round(((5.919376904998587 - 0.20090677900058562) / (1795719801.699 - 1795719794.695)) * 1e4) / 1e4);
  const gc = figures.gc['node-async'];
  // incremental 1 -> 4, major 1 -> 4, minor first seen at 11 (its series made by the window's first minor pause) -> 47
  assert.strictEqual(gc.count, 3 + 3 + 47);
  assert.strictEqual(gc.maxMs, 54.255, 'the largest lab_gc_pause_max_seconds sample');
  assert.strictEqual(gc.longestAt, new Date(1795719798.695 * 1000).toISOString(), 'the scrape that saw it');
  assert.ok(gc.totalMs >= gc.maxMs && gc.totalMs <= gc.count * gc.maxMs, JSON.stringify(gc));
  assert.ok(gc.p99Ms > 0 && gc.p99Ms <= gc.maxMs, `p99 ${gc.p99Ms} within the longest pause`);
  assert.deepStrictEqual(figures.missing, {});
});

test('a target without the metrics (the JVM has no event loop) is null with the reason, not zero', async () => {
  const noBusy = Object.assign({}, recorded.answers, { busy: undefined });
  const figures = await runtimeFigures(recordedAnswers(noBusy, recorded.seconds), recorded.seconds, ['node-async', 'other']);
  assert.strictEqual(figures.elu['node-async'], null);
  assert.match(figures.missing['node-async'].elu, /exports no lab_event_loop_busy_seconds_total/);
  assert.strictEqual(figures.gc['node-async'].count, 53, 'the pauses are still read');
  assert.strictEqual(figures.elu.other, null);
  assert.strictEqual(figures.gc.other, null);
  assert.match(figures.missing.other.gc, /exports no lab_gc_pause_seconds/);
});

test('a recorded JVM window: its pauses read with the same fields, and no ELU (no event loop), with the reason', async () => {
  const figures = await runtimeFigures(recordedAnswers(recordedJvm.answers, recordedJvm.seconds), recordedJvm.seconds, ['jvm-serializer']);
  // G1's young pauses only (kind minor): 1 -> 17; the gauge's largest sample 0.233 s, at the scrape of 1795721204.991
  assert.deepStrictEqual(Object.keys(figures.gc['jvm-serializer']), ['count', 'totalMs', 'maxMs', 'p99Ms', 'longestAt']);
  assert.strictEqual(figures.gc['jvm-serializer'].count, 16);
  assert.strictEqual(figures.gc['jvm-serializer'].maxMs, 233);
  assert.strictEqual(figures.gc['jvm-serializer'].longestAt, new Date(1795721204.991 * 1000).toISOString());
  assert.ok(figures.gc['jvm-serializer'].p99Ms <= 233);
  assert.strictEqual(figures.elu['jvm-serializer'], null);
  assert.match(figures.missing['jvm-serializer'].elu, /exports no lab_event_loop_busy_seconds_total/);
  assert.strictEqual(figures.missing['jvm-serializer'].gc, undefined);
});

test('a window with no pause: count 0 and total 0 as measured, but no longest, no p99 and no time', async () => {
  const answers = {
    busy: { data: { result: matrix('svc', [[10, 1], [11, 1.25], [12, 1.5]]) } },
    pauseCount: { data: { result: matrix('svc', [[10, 7], [11, 7], [12, 7]], { kind: 'minor' }) } },
    pauseSum: { data: { result: matrix('svc', [[10, 0.01], [11, 0.01], [12, 0.01]], { kind: 'minor' }) } },
    pauseBucket: { data: { result: matrix('svc', [[10, 7], [11, 7], [12, 7]], { kind: 'minor', le: '+Inf' }) } },
    pauseMax: { data: { result: matrix('svc', [[10, 0], [11, 0], [12, 0]]) } },
  };
  const figures = await runtimeFigures(recordedAnswers(answers, 3), 3, ['svc']);
  assert.strictEqual(figures.elu.svc, 0.25);
  assert.deepStrictEqual(figures.gc.svc, { count: 0, totalMs: 0, maxMs: null, p99Ms: null, longestAt: null });
});

test("the first scrape is the baseline: a pause it saw was before the window, and the longest is the window's own", async () => {
  const answers = {
    pauseCount: { data: { result: matrix('svc', [[10, 3], [11, 4]], { kind: 'major' }) } },
    pauseSum: { data: { result: matrix('svc', [[10, 0.6], [11, 0.61]], { kind: 'major' }) } },
    pauseBucket: { data: { result: matrix('svc', [[10, 3], [11, 4]], { kind: 'major', le: '+Inf' }) } },
    pauseMax: { data: { result: matrix('svc', [[10, 0.5], [11, 0.01]]) } },
  };
  const gc = (await runtimeFigures(recordedAnswers(answers, 2), 2, ['svc'])).gc.svc;
  assert.deepStrictEqual([gc.count, gc.totalMs, gc.maxMs, gc.longestAt], [1, 10, 10, new Date(11000).toISOString()]);
});

test('one scrape in the window gives no utilization, with the reason', async () => {
  const answers = { busy: { data: { result: matrix('svc', [[10, 1]]) } } };
  const figures = await runtimeFigures(recordedAnswers(answers, 1), 1, ['svc']);
  assert.strictEqual(figures.elu.svc, null);
  assert.strictEqual(figures.missing.svc.elu, 'fewer than two scrapes in the window');
});

test("a counter's growth across a restart counts from zero; a series born in the window counts its first value", () => {
  assert.strictEqual(growth([[1, 5], [2, 8], [3, 2], [4, 6]]), 3 + 2 + 4);
  assert.strictEqual(growth([[2, 3], [3, 5]], true), 5);
});

test('the quantile of bucket counts, as histogram_quantile interpolates', () => {
  const buckets = [{ le: 0.001, count: 0 }, { le: 0.01, count: 100 }, { le: Infinity, count: 100 }];
  assert.ok(Math.abs(quantileOf(0.5, buckets) - 0.0055) < 1e-12, 'halfway through the bucket 1-10 ms');
  assert.strictEqual(quantileOf(0.99, [{ le: 0.01, count: 1 }, { le: Infinity, count: 2 }]), 0.01, 'in +Inf: the highest finite bound');
  assert.strictEqual(quantileOf(0.99, [{ le: Infinity, count: 0 }]), null);
});

test("a scenario's summary and printed line carry its target's ELU and GC pauses, and nothing where there are none", () => {
  const { summarize, describeSummary } = require('../src/run/summary');
  const outcome = (server) => ({
    scenario: { name: 's', target: 'node-async', path: '/run/stringify?approach=native', run: { workload: 'stringify', approach: 'native' } },
    result: { requests: { total: 10, average: 5 }, latency: { p50: 1, p90: 2, p99: 3, max: 4 }, errors: 0, timeouts: 0, non2xx: 0 },
    checks: { invalid: 0, runs: null }, passed: true, problems: [], flags: [], thresholds: [], server,
  });
  const gc = { count: 42, totalMs: 775.125, maxMs: 68.285, p99Ms: 60, longestAt: '2026-11-26T19:31:37.832Z' };
  const summary = summarize(outcome({ available: true, jobs: {}, elu: { 'node-async': 0.9957 }, gc: { 'node-async': gc }, missing: {} }));
  assert.deepStrictEqual([summary.serverElu, summary.gcPauses, summary.gcPauseMaxMs, summary.gcPauseP99Ms], [0.9957, 42, 68.285, 60]);
  assert.match(describeSummary(summary), /p99 3 ms; server ELU 0\.9957, 42 GC pauses, longest 68\.285 ms$/);
  const without = summarize(outcome({ available: false, error: 'connect ECONNREFUSED' }));
  assert.deepStrictEqual([without.serverElu, without.gcPauses, without.gcPauseMaxMs, without.gcPauseP99Ms], [null, null, null, null]);
  assert.doesNotMatch(describeSummary(without), /ELU|GC/);
});
