'use strict';
// Finds a run's folder and reads what `make compare` needs from it: every scenario file (NN-<name>.json: autocannon's
// totals in `result`, the per-second samples in `perSecond`) and run.json's header when there is one. Everything is
// checked here, once: a missing run, an unreadable or malformed file throws a CompareInputError naming the file and
// what is wrong, which compare.js turns into exit code 2.
const fs = require('node:fs');
const path = require('node:path');
const { readRunFolder } = require('../run/run-folder');

// The lab's results folder (the driver's RESULTS_DIR under `make start`/`make native`): results/ at the repo root.
const DEFAULT_RESULTS_DIR = path.join(__dirname, '..', '..', '..', 'results');

/** Bad input (a run not found, a file unreadable or not in the result format): exit code 2, not a regression. */
class CompareInputError extends Error {}

function fail(message) {
  throw new CompareInputError(message);
}

const isDir = (p) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/** A run id under resultsDir, or the path of a run folder. */
function resolveRun(arg, resultsDir = DEFAULT_RESULTS_DIR) {
  if (typeof arg !== 'string' || arg === '') fail('a run is an id under the results folder or a run folder\'s path; got nothing');
  const underResults = path.join(resultsDir, arg);
  if (!path.isAbsolute(arg) && !arg.includes(path.sep) && !arg.startsWith('.') && isDir(underResults)) return underResults;
  if (isDir(arg)) return path.resolve(arg);
  return fail(`run "${arg}" not found: neither ${underResults} nor ${path.resolve(arg)} is a folder`);
}

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const nullOrNumber = (v) => v === null || isNumber(v);

/** The target's event-loop lag max of each second, in ms, from the server's series; [] where the file has none. */
function lagMaxMsOf(data) {
  const jobs = data.server && data.server.available && data.server.jobs;
  const points = jobs && jobs[data.scenario.target] && jobs[data.scenario.target].lagMaxSeconds;
  return Array.isArray(points) ? points.filter((p) => Array.isArray(p) && isNumber(p[1])).map(([, v]) => v * 1000) : [];
}

/** Checks the parts of a scenario file compare reads; returns {name, file, result, perSecond, lagMaxMs, passed, stopped}. */
function checkScenario(data, file) {
  const where = (what) => `${file}: ${what}`;
  if (data === null || typeof data !== 'object') fail(where('not a scenario result (an object)'));
  const name = data.scenario && data.scenario.name;
  if (typeof name !== 'string' || name === '') fail(where('scenario.name is missing'));
  const r = data.result;
  if (!r || !r.requests || !r.latency) fail(where("result is not autocannon's result object (requests, latency)"));
  if (!isNumber(r.requests.average)) fail(where('result.requests.average is not a number'));
  for (const p of ['p50', 'p90', 'p99']) if (!isNumber(r.latency[p])) fail(where(`result.latency.${p} is not a number`));
  if (!Array.isArray(data.perSecond)) fail(where('no perSecond samples (a result written before the driver recorded them cannot be tested for significance)'));
  data.perSecond.forEach((s, i) => {
    const ok = s && isNumber(s.requests) && ['latencyMeanMs', 'latencyP50Ms', 'latencyP99Ms'].every((f) => nullOrNumber(s[f]));
    if (!ok) fail(where(`perSecond[${i}] needs requests (a number) and latencyMeanMs, latencyP50Ms, latencyP99Ms (numbers or null)`));
  });
  return { name, file, result: r, perSecond: data.perSecond, lagMaxMs: lagMaxMsOf(data), passed: data.passed !== false, stopped: data.stopped === true };
}

/**
 * Reads run `arg` (an id under resultsDir, or a folder's path): {id, dir, suite, startedAt, scenarios: Map name ->
 * scenario}. A folder without scenario files, a malformed file or two files of the same scenario is an error.
 */
function readRun(arg, resultsDir = DEFAULT_RESULTS_DIR) {
  let folder;
  try {
    folder = readRunFolder(resolveRun(arg, resultsDir));
  } catch (err) {
    if (err.code === 'NOT_A_RUN') fail(err.message);
    throw err;
  }
  const header = folder.run || {};
  const scenarios = new Map();
  for (const { file, data } of folder.scenarios) {
    const scenario = checkScenario(data, file);
    if (scenarios.has(scenario.name)) fail(`${folder.runDir}: scenario ${scenario.name} has two result files (${path.basename(scenarios.get(scenario.name).file)}, ${path.basename(file)})`);
    scenarios.set(scenario.name, scenario);
  }
  return { id: folder.runId, dir: folder.runDir, suite: header.suite || null, startedAt: header.startedAt || null, scenarios };
}

module.exports = { readRun, resolveRun, CompareInputError, DEFAULT_RESULTS_DIR };
