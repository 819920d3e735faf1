'use strict';
// A run's folder, results/<run-id>/, in one place: the names of its files (run.json, NN-<scenario>.json in run
// order, report.html), and reading it back for the report and `make compare`, which add their own checks. A folder
// that is not a run is refused here, naming what is wrong, with err.code = 'NOT_A_RUN'.
const fs = require('node:fs');
const path = require('node:path');

const RUN_FILE = 'run.json';
const SCENARIO_FILE = /^(\d+)-(.+)\.json$/;

/** The result file of the scenario run index-th (from 0): 01-<name>.json, … */
const scenarioFileName = (index, name) => `${String(index + 1).padStart(2, '0')}-${name}.json`;

function notARun(message) {
  const err = new Error(message);
  err.code = 'NOT_A_RUN';
  return err;
}

function readJson(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw notARun(`${file}: ${err.code === 'ENOENT' ? 'no such file' : `cannot be read (${err.code || err.message})`}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw notARun(`${file}: not JSON (${err.message})`);
  }
}

/**
 * {runId, runDir, run (run.json, or null when absent), scenarios: [{file, data}] in run order}; throws NOT_A_RUN for
 * a missing folder, one without scenario files, or a file that is not JSON.
 */
function readRunFolder(runDir) {
  if (typeof runDir !== 'string' || runDir === '') throw notARun('give a run folder: results/<run-id>');
  const dir = path.resolve(runDir);
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat) throw notARun(`${dir}: no such folder`);
  if (!stat.isDirectory()) throw notARun(`${dir}: not a folder`);
  const names = fs.readdirSync(dir);
  const files = names.filter((name) => SCENARIO_FILE.test(name)).sort((a, b) => Number(SCENARIO_FILE.exec(a)[1]) - Number(SCENARIO_FILE.exec(b)[1]));
  if (files.length === 0) throw notARun(`${dir} holds no scenario results (NN-<scenario>.json): is it a run folder?`);
  return {
    runId: path.basename(dir),
    runDir: dir,
    run: names.includes(RUN_FILE) ? readJson(path.join(dir, RUN_FILE)) : null,
    scenarios: files.map((name) => ({ file: path.join(dir, name), data: readJson(path.join(dir, name)) })),
  };
}

module.exports = { RUN_FILE, SCENARIO_FILE, scenarioFileName, readRunFolder, notARun };
