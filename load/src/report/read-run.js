'use strict';
// The run folder as the report reads it (run-folder.js): run.json with its suite, and every scenario file with its
// scenario, result and window. Anything else is refused, naming what is wrong (err.code = 'NOT_A_RUN').
const fs = require('node:fs');
const path = require('node:path');
const { readRunFolder, notARun, RUN_FILE } = require('../run/run-folder');

/** A result with a kept CPU profile gets its folded stacks (the .folded file beside it) as profile.folded, for the flame graph. */
function withFolded(data, dir) {
  const files = data.profile && data.profile.files;
  const name = files && files.find((f) => f.endsWith('.folded') && path.basename(f) === f);
  if (!name) return data;
  const file = path.join(dir, name);
  const folded = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return Object.assign({}, data, { profile: Object.assign({}, data.profile, { folded }) });
}

/** {runId, runDir, run, scenarios: [scenario result files, run order]}; throws NOT_A_RUN for anything else. */
function readRun(runDir) {
  const { runId, runDir: dir, run, scenarios } = readRunFolder(runDir);
  if (run === null || typeof run !== 'object' || typeof run.suite !== 'string') throw notARun(`${dir}/${RUN_FILE}: missing, or not a run's run.json (no suite)`);
  for (const { file, data } of scenarios) {
    if (!data || !data.scenario || !data.result || !data.window) throw notARun(`${file}: not a scenario result (scenario, result and window expected)`);
  }
  return { runId, runDir: dir, run, scenarios: scenarios.map((s) => withFolded(s.data, dir)) };
}

module.exports = { readRun };
