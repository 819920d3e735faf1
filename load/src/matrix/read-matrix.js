'use strict';
// A matrix folder (results/matrix-<time>/, written by docker/matrix.js): matrix.json (the settings, the versions each
// step ran and how each step ended) and one run folder per step that ran (<step id>/, the driver's ordinary run
// folder, so `make compare` and `make report` work on any of them). Read and checked here once; every scenario file
// summarized as the driver summarizes it (summary.js), with its per-second samples kept for the significance tests.
const fs = require('node:fs');
const path = require('node:path');
const { readRunFolder } = require('../run/run-folder');
const { summarize } = require('../run/summary');

const MATRIX_FILE = 'matrix.json';

/** {dir, settings, versions, steps: [{id, runtime, line, repeat, error?, runtimeVersion, scenarios: [{summary, perSecond}]}]}. */
function readMatrix(dir) {
  const file = path.join(dir, MATRIX_FILE);
  if (!fs.existsSync(file)) throw new Error(`${dir}: no ${MATRIX_FILE}: not a matrix folder (make matrix writes results/matrix-<time>/)`);
  const matrix = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!matrix.settings || !Array.isArray(matrix.steps)) throw new Error(`${file}: needs settings and steps`);
  const steps = matrix.steps.map((step) => {
    if (step.error || !step.runDir) return Object.assign({ scenarios: [] }, step);
    const folder = readRunFolder(path.join(dir, step.runDir));
    const scenarios = folder.scenarios.map(({ data }) => ({ summary: summarize(data), perSecond: data.perSecond || [], runMs: (data.checks && data.checks.runs && data.checks.runs.msSamples) || [] }));
    return Object.assign({}, step, { scenarios, runtimeVersion: step.runtimeVersion || null });
  });
  return { dir, settings: matrix.settings, versions: matrix.versions || {}, startedAt: matrix.startedAt || null, endedAt: matrix.endedAt || null, steps };
}

module.exports = { readMatrix, MATRIX_FILE };
