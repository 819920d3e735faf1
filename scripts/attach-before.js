'use strict';
// make attach's A/B of a fix: BEFORE=<run-id> (an earlier make attach's run, an id under the results folder or its
// folder's path) makes this run load the endpoint exactly as that one did (the same closed loops, the open loops at
// the same rates, not at shares of today's saturation, which a fix moves, and the same seconds each), then compares the
// two with make compare's Mann-Whitney test, the server's lag among the metrics (load/src/compare/).
const { readRunFolder } = require('@lab/load/src/run/run-folder');
const { resolveRun, DEFAULT_RESULTS_DIR } = require('@lab/load/src/compare/read-run');
const { main: compareMain } = require('@lab/load/src/compare/compare');
const { InputError } = require('./try-document');

/** BEFORE's run: {dir, url, durationSeconds, rates: {scenario name: arrivalRate}}; refused unless it is a make attach run. */
function beforeRun(text, resultsDir = DEFAULT_RESULTS_DIR) {
  let folder;
  try {
    folder = readRunFolder(resolveRun(text, resultsDir));
  } catch (err) {
    throw new InputError(`BEFORE: ${err.message}`);
  }
  if (!folder.run || !folder.run.attach) throw new InputError(`BEFORE: ${folder.runDir} is not a make attach run (its run.json has no attach)`);
  const scenarios = folder.scenarios.map((s) => s.data.scenario);
  const rates = Object.fromEntries(scenarios.filter((s) => s.arrivalRate).map((s) => [s.name, s.arrivalRate]));
  return { dir: folder.runDir, url: folder.run.attach.url, durationSeconds: scenarios.length ? scenarios[0].durationSeconds : null, rates };
}

/** Compares this run (afterDir) with BEFORE's, printing make compare's table; make compare's exit code (1: a regression). */
function compareWithBefore(before, afterDir, env = process.env) {
  return compareMain([before.dir, afterDir], env, (t) => process.stdout.write(t), (t) => process.stderr.write(t));
}

module.exports = { beforeRun, compareWithBefore };
