'use strict';
// `make compare A=<run-id> B=<run-id>`: run B against run A, scenario by scenario, with a Mann-Whitney U test on the
// per-second samples (mann-whitney.js says why that test). Prints the table, writes compare.html into B's folder (or
// --html PATH), and exits 1 when a scenario got significantly worse by more than MAX_REGRESSION (a fraction, default
// 0.1), 0 otherwise, 2 on bad arguments or unreadable results.
//
//   node load/src/compare/compare.js [--html PATH] A B     (A, B: run ids under RESULTS_DIR, or run folders' paths)
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { readRun, CompareInputError, DEFAULT_RESULTS_DIR } = require('./read-run');
const { compareRuns, parseMaxRegression } = require('./compare-runs');
const { renderText } = require('./text-table');
const { renderHtml } = require('./html');

const EXIT = { ok: 0, regression: 1, usage: 2 };
const USAGE = 'usage: compare.js [--html PATH] A B   (A, B: run ids under RESULTS_DIR, or run folders; MAX_REGRESSION=0.1 in the environment)';

/** Arguments and environment checked in one place: {runA, runB, htmlPath, resultsDir, maxRegression}; throws CompareInputError. */
function readOptions(argv, env) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { html: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CompareInputError(`${err.message}\n${USAGE}`);
  }
  if (parsed.positionals.length !== 2) throw new CompareInputError(`expected two runs, A and B, got ${parsed.positionals.length}\n${USAGE}`);
  if (parsed.values.html === '') throw new CompareInputError(`--html needs a file path\n${USAGE}`);
  let maxRegression;
  try {
    maxRegression = parseMaxRegression(env.MAX_REGRESSION);
  } catch (err) {
    throw new CompareInputError(err.message);
  }
  const resultsDir = env.RESULTS_DIR ? path.resolve(env.RESULTS_DIR) : DEFAULT_RESULTS_DIR;
  const [runA, runB] = parsed.positionals;
  return { runA, runB, htmlPath: parsed.values.html, resultsDir, maxRegression };
}

/** Runs the comparison; returns the exit code. out/err: where text goes (process.stdout/stderr's write). */
function main(argv, env, out, err) {
  try {
    const options = readOptions(argv, env);
    const a = readRun(options.runA, options.resultsDir);
    const b = readRun(options.runB, options.resultsDir);
    const report = compareRuns(a, b, options.maxRegression);
    const htmlPath = path.resolve(options.htmlPath || path.join(b.dir, 'compare.html'));
    try {
      fs.writeFileSync(htmlPath, renderHtml(report));
    } catch (e) {
      throw new CompareInputError(`cannot write ${htmlPath}: ${e.code || e.message}`);
    }
    out(renderText(report));
    out(`compare.html: ${htmlPath}\n`);
    return report.regressions.length > 0 ? EXIT.regression : EXIT.ok;
  } catch (e) {
    if (!(e instanceof CompareInputError)) throw e;
    err(`compare: ${e.message}\n`);
    return EXIT.usage;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), process.env, (t) => process.stdout.write(t), (t) => process.stderr.write(t));
}

module.exports = { main, readOptions, EXIT };
