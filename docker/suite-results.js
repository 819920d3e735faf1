'use strict';
// What a suite run inside a containerized lab must have left (make smoke, make swarm).
const fs = require('node:fs');
const path = require('node:path');

/**
 * Every scenario file of the newest run of `suite`: passed (thresholds included), no errors or non-2xx, every
 * response validated, the server's series read from Prometheus, report.html written. Returns the run's folder.
 */
function checkSuiteResults(resultsDir, suite, log) {
  const runs = fs.readdirSync(resultsDir).filter((d) => d.endsWith(`-${suite}`)).sort();
  if (runs.length === 0) throw new Error(`no ${suite} run in ${resultsDir}`);
  const dir = path.join(resultsDir, runs[runs.length - 1]);
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
  const problems = [];
  if (run.verdict !== 'passed') problems.push(`run.json verdict is ${run.verdict}`);
  const files = fs.readdirSync(dir).filter((f) => f !== 'run.json' && f.endsWith('.json'));
  if (files.length !== run.summary.length) problems.push(`${files.length} scenario files for ${run.summary.length} scenarios`);
  let responses = 0;
  for (const file of files) {
    const { result, checks, server } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    responses += checks.checked;
    // The driver reads each scenario's server series from the containerized Prometheus (PROMETHEUS_URL's default).
    if (!server || !server.available) problems.push(`${file}: no server series (${server ? server.error : 'no server section'})`);
    if (result.errors || result.timeouts || result.non2xx) problems.push(`${file}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
    if (checks.checked === 0 || checks.invalid > 0 || checks.failedRuns > 0) problems.push(`${file}: ${checks.checked} responses checked, ${checks.invalid} not validated, ${checks.failedRuns} failed`);
  }
  if (!fs.existsSync(path.join(dir, 'report.html'))) problems.push('no report.html: the driver writes one when the suite ends');
  if (problems.length > 0) throw new Error(`${suite} results in ${dir}:\n  ${problems.join('\n  ')}`);
  log(`results checked: ${files.length} scenarios, ${responses} responses checked, none invalid, no errors, server series in each, report.html written (${dir})`);
  for (const [name, info] of Object.entries(run.targets)) log(`  ${name}: ${info.runtime ? [info.runtime.name, info.runtime.version, ...(info.runtime.options || [])].join(' ') : 'runtime not reported'}`);
  return dir;
}

module.exports = { checkSuiteResults };
