#!/usr/bin/env node
'use strict';
// `make smoke`: the containerized lab on a real Docker engine. Builds the images, starts the stack, waits until every
// Prometheus target is up, runs the smoke suite inside the load container, checks its results (every scenario
// passed, no errors, every response validated), runs every dashboard query against the containerized Prometheus,
// checks Grafana itself through its HTTP API where it runs (docker/grafana-check.js; not offline), sends
// CONTRACT.md's bad requests to every service and the load driver in their containers, attaches node-async through
// the driver's POST /attach, and always ends with `docker compose down -v`. The exit status is the verdict.
//
//   node docker/smoke.js [--if-engine]
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test uses it).
// LAB_BASE_IMAGES=upstream|offline|auto (auto): upstream pulls the pinned base images; offline builds stand-ins from
// Debian and registry packages (docker/offline) and leaves Grafana out; auto tries a pull first.
// SMOKE_PORT_OFFSET (default in compose-lab.js) shifts every published port, so a lab already running keeps its
// ports.
const path = require('node:path');
const { readManifests, ROOT } = require('@lab/lab-topology/manifests');
const { checkDashboardQueries } = require('@lab/dashboards/check-queries');
const { assertGrafana } = require('./grafana-check');
const { composeLab, exitWith, run, mustRun, PORT_OFFSETS } = require('./compose-lab');
const { edgeCases, runCases, checkCases } = require('@lab/test-kit/bad-requests');
const { checkSuiteResults } = require('./suite-results');
const { runAttach } = require('./driver');

const PROJECT = 'lab-smoke';
const STATE_DIR = path.join(ROOT, '.smoke');
const SUITE_TIMEOUT_MS = 600000;

const log = (message) => console.log(`smoke: ${message}`);

/**
 * The run's report in headless Chromium (where load's dependencies and a Chromium are installed: `make test` installs
 * both) and `make compare` of the run against itself: a significance-tested "no change", exit 0.
 */
async function checkReportAndCompare(dir) {
  let browserCheck;
  try {
    browserCheck = require('@lab/load/test/report-browser');
  } catch (err) {
    log(`report.html not opened in a browser: load's dependencies are not installed (make setup) (${err.code || err.message})`);
  }
  if (browserCheck && browserCheck.findChromium()) log(`report.html in headless Chromium: ${(await browserCheck.checkReportInBrowser(path.join(dir, 'report.html'))).text}`);
  else if (browserCheck) log('report.html not opened in a browser: no chromium (scripts/install-system-packages.sh installs it)');
  const compared = await run(process.execPath, [path.join(ROOT, 'load', 'src', 'compare', 'compare.js'), '--html', path.join(STATE_DIR, 'compare.html'), dir, dir]);
  if (compared.code !== 0) throw new Error(`make compare of the smoke run against itself exited ${compared.code}:\n${compared.output}`);
  log('make compare of the smoke run against itself: no significant change, exit 0');
}

async function checkDashboards(prometheus) {
  const rows = await checkDashboardQueries(prometheus, { requireNodeJobs: true });
  const bad = rows.filter((r) => r.status !== 'OK');
  if (bad.length > 0) throw new Error(`dashboard queries without data:\n  ${bad.map((r) => `${r.status} ${r.dashboard} / ${r.panel}: ${r.query || r.expr} ${r.error || ''}`).join('\n  ')}`);
  log(`all ${rows.length} dashboard queries answered with series by the containerized Prometheus`);
}

/**
 * POST /attach in compose: the driver attaches a host of its own targets (node-async's /healthz, no agent), writes
 * Prometheus' targets into the volume it shares with the topology service, and runs the attach suite to its verdict.
 */
async function checkAttach(lab) {
  const run = await runAttach(lab.url('load'), { url: 'http://node-async:3002/healthz', agent: 'none', durationSeconds: '1' }, { resultsDir: lab.resultsDir });
  const verdict = run.attachVerdict;
  if (!verdict || verdict.loads.length === 0 || verdict.loads.some((l) => !l.passed)) throw new Error(`the attach run of node-async's /healthz: ${JSON.stringify(verdict && verdict.loads.map((l) => [l.name, l.passed, l.problems]))}`);
  const written = JSON.parse(await mustRun('reading attached.json', ...lab.compose(['exec', '-T', 'load', 'cat', '/topology/targets/attached.json'])));
  if (!Array.isArray(written) || written.length !== 0) throw new Error(`attached.json for a service without an agent: ${JSON.stringify(written)}`);
  log(`POST /attach in compose: node-async's /healthz loaded ${verdict.loads.length} ways to a verdict; attached.json written in Prometheus' targets volume`);
}

/** CONTRACT.md's one answer to each bad request, from every container with an HTTP face of the lab's. */
async function checkContract(offset) {
  const problems = [];
  let cases = 0;
  for (const { name: job, port } of readManifests()) {
    const url = `http://127.0.0.1:${port + offset}`;
    const info = job === 'load' ? null : await (await fetch(`${url}/info`)).json();
    const list = info ? edgeCases().concat(runCases(info)) : edgeCases();
    cases += list.length;
    for (const problem of await checkCases(port + offset, list)) problems.push(`${job}: ${problem}`);
  }
  if (problems.length > 0) throw new Error(`answers that are not the contract's:\n  ${problems.join('\n  ')}`);
  log(`all ${cases} bad requests got the contract's answer from every container`);
}

async function main(argv) {
  const started = Date.now();
  const lab = composeLab({ project: PROJECT, stateDir: STATE_DIR, offset: Number(process.env.SMOKE_PORT_OFFSET || PORT_OFFSETS.smoke), log });
  if (!(await lab.prepare({ ifEngine: argv.includes('--if-engine') }))) return 0;
  return lab.session(started, async () => {
    log('running the smoke suite inside the load container');
    await mustRun('the smoke suite', ...lab.compose(['exec', '-T', 'load', 'node', 'src/run-suite.js', 'smoke'], { show: true, timeoutMs: SUITE_TIMEOUT_MS }));
    await checkReportAndCompare(checkSuiteResults(lab.resultsDir, 'smoke', log));
    await checkDashboards(lab.prometheus);
    if (lab.services.includes('grafana')) log(await assertGrafana(`http://127.0.0.1:${lab.env.GRAFANA_PORT}`));
    else log('Grafana check SKIPPED: the offline base images have no stand-in for Grafana, so it was left out; the dashboards were checked by their queries against Prometheus only');
    await checkContract(lab.offset);
    await checkAttach(lab);
  });
}

exitWith('smoke', main);
