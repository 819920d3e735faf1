'use strict';
// How every benchmark ends: the raw results saved under results/bench/ (the table is a separate view of them), the
// report printed as a table or, with --json, as the raw JSON, and a failed validation made the exit status, so a fast
// wrong result can never pass as a figure.
const { saveBenchResults } = require('./results-file');

/**
 * Saves report as <name>-<time>.json in dir (results/bench/), prints it (printTable(report), or the JSON with --json
 * in args) and sets the exit code to 1 when failed is true. Returns the file's path.
 */
function finish(name, report, { args = process.argv.slice(2), printTable, failed, dir }) {
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printTable(report);
  const file = saveBenchResults(name, report, dir);
  console.error(`raw results: ${file}`);
  if (failed) process.exitCode = 1;
  return file;
}

/** Runs main(); an error ends the benchmark with its stack and exit status 1. */
function runBenchmark(main) {
  Promise.resolve()
    .then(main)
    .catch((error) => {
      console.error(error.stack || error.message);
      process.exitCode = 1;
    });
}

module.exports = { finish, runBenchmark };
