'use strict';
// What the compare tests share: the CLI run as a child process (its real exit code and output), and run folders
// written from given per-second samples for the tests of its arguments and output. Not a test file: the Makefile runs
// test/*.test.js only.
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { scenarioFileName } = require('../src/run/run-folder');

const COMPARE = path.join(__dirname, '..', 'src', 'compare', 'compare.js');

/** Runs compare.js with args and env added to this process's; resolves {status, stdout, stderr}. */
function runCompare(args, env = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [COMPARE, ...args], { env: Object.assign({}, process.env, { MAX_REGRESSION: '' }, env) }, (err, stdout, stderr) => {
      resolve({ status: err ? err.code : 0, stdout, stderr });
    });
  });
}

/**
 * A scenario's result file in the driver's format, from per-second samples: seconds is [[requests, latencyMs], ...]
 * (latency null for a second without answers); the totals are made from them.
 */
function scenarioResult(name, seconds, extra = {}) {
  const perSecond = seconds.map(([requests, ms], second) => ({ second, requests, non2xx: 0, latencyMeanMs: ms, latencyP50Ms: ms, latencyP99Ms: ms === null ? null : ms * 1.5, latencyMaxMs: ms === null ? null : ms * 2 }));
  const answered = seconds.filter(([, ms]) => ms !== null).map(([, ms]) => ms).sort((x, y) => x - y);
  const median = answered.length ? answered[Math.floor(answered.length / 2)] : 0;
  const total = seconds.reduce((s, [requests]) => s + requests, 0);
  const result = { requests: { average: total / seconds.length, total }, latency: { p50: median, p90: median * 1.3, p99: median * 1.5, max: median * 2 } };
  return Object.assign({ scenario: { name, target: 'timer', path: '/wait' }, result, perSecond, passed: true, problems: [] }, extra);
}

/** Writes run folder dir/id with run.json and one NN-<name>.json per scenario; returns its path. */
function writeRun(dir, id, scenarios, suite = 'fixture') {
  const runDir = path.join(dir, id);
  fs.mkdirSync(runDir, { recursive: true });
  fs.writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({ suite, startedAt: '2026-01-01T00:00:00.000Z' }));
  scenarios.forEach((s, i) => fs.writeFileSync(path.join(runDir, scenarioFileName(i, s.scenario.name)), JSON.stringify(s)));
  return runDir;
}

module.exports = { runCompare, scenarioResult, writeRun, COMPARE };
