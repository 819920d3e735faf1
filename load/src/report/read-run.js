'use strict';
// The run folder as the report reads it (run-folder.js): run.json with its suite, and every scenario file with its
// scenario, result and window. Anything else is refused, naming what is wrong (err.code = 'NOT_A_RUN').
const { readRunFolder, notARun, RUN_FILE } = require('../run-folder');

/** {runId, runDir, run, scenarios: [scenario result files, run order]}; throws NOT_A_RUN for anything else. */
function readRun(runDir) {
  const { runId, runDir: dir, run, scenarios } = readRunFolder(runDir);
  if (run === null || typeof run !== 'object' || typeof run.suite !== 'string') throw notARun(`${dir}/${RUN_FILE}: missing, or not a run's run.json (no suite)`);
  for (const { file, data } of scenarios) {
    if (!data || !data.scenario || !data.result || !data.window) throw notARun(`${file}: not a scenario result (scenario, result and window expected)`);
  }
  return { runId, runDir: dir, run, scenarios: scenarios.map((s) => s.data) };
}

module.exports = { readRun };
