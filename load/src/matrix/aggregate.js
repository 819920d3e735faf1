'use strict';
// The matrix across versions (readMatrix's), per runtime and scenario: each version's median and spread over its
// repeats, and its change against the pinned version, tested. Figures per repeat are the driver's own (summary.js):
// the service's mean time of one run, throughput, the longest block of the event loop, the probe's p99. The time of
// one run is tested with the Mann-Whitney U test on every run of every repeat pooled (each answer's own ms, as the
// service timed it: tens of samples a repeat), throughput where the answers time no run (offload) on every second;
// the p-values of the whole matrix are corrected together (holm.js), since a matrix asks a hundred questions at once
// and a handful of per-second samples could never pass the correction. A version that could not run a scenario (its
// image did not build, a repeat failed) says why.
const { mannWhitney } = require('../compare/mann-whitney');
const { relativeChange, VERDICT, ALPHA } = require('../compare/compare-runs');
const { holmAdjusted } = require('./holm');
const { median } = require('@lab/bench-kit/stats');

const FIGURES = ['runMeanMs', 'requestsPerSecond', 'longestBlockMs', 'probeP99Ms'];
// Tested against the pinned version: {key, the per-second sample, whether higher is better}.
const TESTED = [
  { key: 'runMeanMs', label: 'ms a run', samplesOf: (r) => r.runMs, higherIsBetter: false },
  { key: 'requestsPerSecond', label: 'requests/s', samplesOf: (r) => r.perSecond.map((s) => s.requests), higherIsBetter: true, onlyWithout: 'runMeanMs' },
];

/** {median, min, max, n} of the numbers among values, or null when there are none. */
function spreadOf(values) {
  const known = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (known.length === 0) return null;
  return { median: median(known), min: Math.min(...known), max: Math.max(...known), n: known.length };
}

/** One version's figures for one scenario over its repeats (results: [{summary, perSecond}], failures: [why]). */
function versionCell(results, failures) {
  const passed = results.filter((r) => r.summary.passed);
  const cell = { repeats: results.length, passedRepeats: passed.length, problems: failures.slice() };
  for (const r of results) if (!r.summary.passed) cell.problems.push(...r.summary.problems);
  for (const key of FIGURES) cell[key] = spreadOf(passed.map((r) => r.summary[key]));
  cell.samples = Object.fromEntries(TESTED.map((t) => [t.key, passed.flatMap((r) => (t.samplesOf(r) || []).filter((v) => typeof v === 'number'))]));
  return cell;
}

/** The change of one version's cell against the pinned one's, untested p (the correction comes once all are known). */
function changeOf(pinned, other) {
  // Throughput is tested only where no run time is: the two say the same of a scenario whose answers time their runs.
  const tested = TESTED.filter((t) => !(t.onlyWithout && (pinned[t.onlyWithout] || other[t.onlyWithout])));
  return tested.map((t) => {
    const a = pinned.samples[t.key];
    const b = other.samples[t.key];
    const row = { key: t.key, label: t.label, higherIsBetter: t.higherIsBetter, change: null, p: null, direction: 0, samples: [a.length, b.length] };
    if (!pinned[t.key] || !other[t.key] || a.length === 0 || b.length === 0) return row;
    const test = mannWhitney(a, b);
    // The change of the samples the test compares (their medians), so that the two never disagree: the repeats' means
    // the table shows moved +2.2 % where every run pooled was faster (Node 26's json transfer, a matrix of 2026-11-27).
    return Object.assign(row, { change: relativeChange(median(a), median(b)), p: test.p, direction: test.direction });
  });
}

/** The aggregate of a read matrix: {alpha, comparisons, expectedFalsePositives, runtimes: [...]}. */
function aggregate(matrix) {
  const runtimes = [];
  for (const runtime of ['node', 'java']) {
    const lines = matrix.settings[runtime] || [];
    if (lines.length === 0) continue;
    const pinned = matrix.settings.pinned[runtime];
    const steps = matrix.steps.filter((s) => s.runtime === runtime);
    const names = [];
    const meta = new Map();
    for (const step of steps) {
      for (const { summary } of step.scenarios) {
        if (!meta.has(summary.name)) {
          names.push(summary.name);
          meta.set(summary.name, { target: summary.target, workload: summary.workload, approach: summary.approach });
        }
      }
    }
    const versions = Object.fromEntries(lines.map((line) => [line, (steps.find((s) => s.line === line && s.runtimeVersion) || {}).runtimeVersion || null]));
    const failedSteps = steps.filter((s) => s.error).map((s) => ({ id: s.id, line: s.line, error: s.error }));
    const scenarios = names.map((name) => {
      const byLine = {};
      for (const line of lines) {
        const ofLine = steps.filter((s) => s.line === line);
        const results = ofLine.flatMap((s) => s.scenarios.filter((x) => x.summary.name === name));
        const failures = ofLine.filter((s) => s.error).map((s) => `${s.id}: ${s.error}`);
        for (const s of ofLine) if (!s.error && !s.scenarios.some((x) => x.summary.name === name)) failures.push(`${s.id}: the scenario did not run`);
        byLine[line] = versionCell(results, failures);
      }
      const changes = {};
      for (const line of lines) if (line !== pinned) changes[line] = changeOf(byLine[pinned], byLine[line]);
      return Object.assign({ name }, meta.get(name), { byLine, changes });
    });
    runtimes.push({ runtime, pinned, lines, versions, failedSteps, scenarios });
  }
  // One correction over every test of the matrix.
  const rows = runtimes.flatMap((r) => r.scenarios.flatMap((s) => Object.values(s.changes).flat()));
  const adjusted = holmAdjusted(rows.map((row) => row.p));
  rows.forEach((row, i) => {
    row.pAdjusted = adjusted[i];
    if (row.p === null) row.verdict = VERDICT.noData;
    else if (row.pAdjusted >= ALPHA || row.direction === 0) row.verdict = VERDICT.same;
    else row.verdict = (row.direction > 0) === row.higherIsBetter ? VERDICT.better : VERDICT.worse;
  });
  for (const r of runtimes) for (const s of r.scenarios) for (const cell of Object.values(s.byLine)) delete cell.samples;
  const comparisons = rows.filter((row) => row.p !== null).length;
  return { alpha: ALPHA, correction: 'Holm', comparisons, expectedFalsePositives: comparisons * ALPHA, runtimes };
}

module.exports = { aggregate };
