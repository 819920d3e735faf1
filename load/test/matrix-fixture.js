'use strict';
// A matrix folder written the way docker/matrix.js writes one (matrix.json and a driver run folder per step), from
// figures a test chooses, so the report's order, aggregation and tests can be checked without building an image.
// Not a test file.
const fs = require('node:fs');
const path = require('node:path');
const { scenarioFileName, RUN_FILE } = require('../src/run/run-folder');
const { pathOf } = require('../src/scenario/run-request');

/** 30 samples of `ms`, spread by ±2 % in a fixed pattern. */
const spread = (ms) => Array.from({ length: 30 }, (_, i) => ms * (1 + ((i % 5) - 2) / 100));

/**
 * One scenario result as the driver writes it: `perSecond` requests per second (a list), each second's median latency
 * `p50Ms`, the service's runs taking `runMs` each and blocking its loop for `blockMs`.
 */
function scenarioResult({ name, target, run, perSecond, p50Ms, runMs, blockMs, runSamplesMs, passed = true }) {
  const total = perSecond.reduce((a, b) => a + b, 0);
  return {
    scenario: { name, target, run, path: pathOf(run), connections: 1, durationSeconds: perSecond.length, maxRequests: 100000, expect: 'validated' },
    result: { requests: { average: total / perSecond.length, total }, latency: { p50: p50Ms, p90: p50Ms, p99: p50Ms * 2, max: p50Ms * 3 }, errors: 0, timeouts: 0, non2xx: 0 },
    perSecond: perSecond.map((requests) => ({ requests, latencyMeanMs: p50Ms, latencyP50Ms: p50Ms, latencyP99Ms: p50Ms * 2 })),
    // Each run's own time: runMs, spread by ±2 % in a fixed pattern (or runSamplesMs's, about the same mean runMs).
    checks: { checked: total, invalid: 0, runs: { count: total, totalMs: total * runMs, maxBlockMs: blockMs, msSamples: runSamplesMs || spread(runMs) } },
    probe: { latencyMs: { p99: blockMs + 1, max: blockMs + 2 } },
    server: { available: false, error: 'not asked in this fixture' },
    passed,
    problems: passed ? [] : ['3 responses not validated'],
  };
}

/** Writes the matrix folder: settings (plan.js' shape) and steps [{id, runtime, line, repeat, error?, runtimeVersion, scenarios: [...]}]. */
function writeMatrix(dir, settings, steps) {
  fs.mkdirSync(dir, { recursive: true });
  const recorded = steps.map((step) => {
    const { scenarios, ...rest } = step;
    if (step.error) return rest;
    const runDir = step.id;
    fs.mkdirSync(path.join(dir, runDir));
    fs.writeFileSync(path.join(dir, runDir, RUN_FILE), JSON.stringify({ suite: settings.suite, onlyTargets: [] }));
    scenarios.forEach((s, i) => fs.writeFileSync(path.join(dir, runDir, scenarioFileName(i, s.name)), JSON.stringify(scenarioResult(s))));
    return Object.assign(rest, { runDir });
  });
  fs.writeFileSync(path.join(dir, 'matrix.json'), JSON.stringify({ settings, startedAt: '2026-11-26T19:00:00.000Z', endedAt: '2026-11-26T20:00:00.000Z', steps: recorded }));
}

module.exports = { writeMatrix, scenarioResult, spread };
