#!/usr/bin/env node
'use strict';
// `make smoke`: the containerized lab on a real Docker engine. Builds the images, starts the stack, waits until every
// Prometheus target is up, runs the smoke suite inside the load container, checks its results (every scenario
// passed, no errors, every response validated), runs every dashboard query against the containerized Prometheus,
// checks Grafana itself through its HTTP API where it runs (docker/grafana-check.js; not offline), sends
// CONTRACT.md's bad requests to every service and the load driver in their containers, and always ends with
// `docker compose down -v`. The exit status is the verdict.
//
//   node docker/smoke.js [--if-engine]
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test uses it).
// LAB_BASE_IMAGES=upstream|offline|auto (auto): upstream pulls the pinned base images; offline builds stand-ins from
// Debian and registry packages (docker/offline) and leaves Grafana out; auto tries a pull first.
// SMOKE_PORT_OFFSET (30000) shifts every published port, so a lab already running keeps its ports.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { readManifests, ROOT } = require('../lab-topology/manifests');
const { gitCommit } = require('../lab-topology/checkout');
const { PROMETHEUS_PORT } = require('../lab-topology/topology');
const { checkDashboardQueries } = require('../dashboards/check-queries');
const { assertGrafana } = require('./grafana-check');
const { until } = require('../node-kit/testing');
const { edgeCases, runCases, checkCases } = require('../tests/contract/bad-requests');

const PROJECT = 'lab-smoke';
const STATE_DIR = path.join(ROOT, '.smoke');
const RESULTS_DIR = path.join(STATE_DIR, 'results');
// The load image's own user (the official node images' `node`): as root, the results folder is handed to it.
const LOAD_IMAGE_UID = 1000;
const PULL_TIMEOUT_MS = 60000;
const UP_TIMEOUT_S = 300;
const TARGETS_TIMEOUT_MS = 120000;
const SUITE_TIMEOUT_MS = 600000;
const ENGINE_UNAVAILABLE = 3;
// Services whose images are used as they are, not built.
const PULLED = ['prometheus', 'grafana'];
// Grafana has no stand-in built from Debian or registry packages.
const NO_OFFLINE_STAND_IN = ['grafana'];

const log = (message) => console.log(`smoke: ${message}`);

/**
 * Runs a command; resolves to {code, output}. `show` streams its output ('stderr': only its stderr, where the
 * scripts here report progress); what is not shown is kept for errors.
 */
function run(command, args, { env = process.env, show = false, timeoutMs } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (stream, out, shown) => stream.on('data', (chunk) => {
      output += chunk;
      if (shown) out.write(chunk);
    });
    collect(child.stdout, process.stdout, show === true);
    collect(child.stderr, process.stderr, show !== false);
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : null;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code === null ? `killed (${signal})` : code, output });
    });
  });
}

async function mustRun(what, command, args, options) {
  const { code, output } = await run(command, args, options);
  if (code !== 0) throw new Error(`${what} failed (exit ${code})${options && options.show ? '' : `:\n${output.slice(-4000)}`}`);
  return output;
}

/**
 * Makes the results folder writable by the load container's user, and returns that user: as root, the image's own
 * user gets the folder; otherwise the container runs as whoever runs this (a CI runner's uid, say).
 */
function prepareResultsDir() {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  if (process.getuid() !== 0) return { uid: process.getuid(), gid: process.getgid() };
  fs.chownSync(RESULTS_DIR, LOAD_IMAGE_UID, LOAD_IMAGE_UID);
  return { uid: LOAD_IMAGE_UID, gid: LOAD_IMAGE_UID };
}

/** The compose project's environment: smoke-only ports, results dir and base images, no demo loop. */
function composeEnv(baseImages, offset, resultsOwner) {
  const env = Object.assign({}, process.env, baseImages, {
    LAB_PROJECT_NAME: PROJECT,
    LAB_RESULTS_DIR: RESULTS_DIR,
    LAB_UID: String(resultsOwner.uid),
    LAB_GID: String(resultsOwner.gid),
    LOAD_SUITE: 'none',
    LAB_GIT_COMMIT: gitCommit(),
    LAB_IMAGES: Object.entries(imagesOf(baseImages)).map(([name, image]) => `${name}=${image}`).join(','),
  });
  for (const { name, port } of readManifests()) env[portVariable(name)] = String(port + offset);
  env.PROMETHEUS_PORT = String(PROMETHEUS_PORT + offset);
  env.GRAFANA_PORT = String(3000 + offset);
  return env;
}

/** Every base image the compose file names ({NODE24_IMAGE: ...}), its default unless baseImages overrides it. */
function imagesOf(baseImages) {
  const text = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const images = {};
  for (const [, name, image] of text.matchAll(/\$\{([A-Z0-9_]+_IMAGE):-([^}]+)\}/g)) images[name] = baseImages[name] || process.env[name] || image;
  return images;
}

/** The variable docker-compose.yml publishes a service's port with: node-async -> NODE_ASYNC_PORT. */
function portVariable(job) {
  return `${job.toUpperCase().replace(/-/g, '_')}_PORT`;
}

/** The default docker-compose.yml gives a variable (${NAME:-default}). */
function composeDefault(name) {
  const match = new RegExp(`\\$\\{${name}:-([^}]+)\\}`).exec(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
  if (!match) throw new Error(`docker-compose.yml has no default for ${name}`);
  return match[1];
}

/** upstream or offline: LAB_BASE_IMAGES, or for auto whether one pinned base image can be pulled. */
async function chooseBaseImages() {
  const wanted = process.env.LAB_BASE_IMAGES || 'auto';
  if (!['upstream', 'offline', 'auto'].includes(wanted)) throw new Error(`LAB_BASE_IMAGES must be upstream, offline or auto, got "${wanted}"`);
  if (wanted !== 'auto') return wanted;
  const probe = composeDefault('NODE24_IMAGE');
  const { code, output } = await run('docker', ['pull', '-q', probe], { timeoutMs: PULL_TIMEOUT_MS });
  if (code === 0) return 'upstream';
  log(`cannot pull ${probe} (${output.trim().split('\n').pop()}): building offline stand-ins for the base images`);
  return 'offline';
}

/** Builds the offline stand-ins; resolves to their build arguments ({NODE24_IMAGE: ..., ...}). */
async function offlineBaseImages() {
  const output = await mustRun('building the offline base images', path.join(ROOT, 'docker', 'offline', 'build-bases.sh'), [], { show: 'stderr' });
  const images = {};
  for (const line of output.split('\n')) {
    const match = /^([A-Z0-9_]+_IMAGE)=(\S+)$/.exec(line.trim());
    if (match) images[match[1]] = match[2];
  }
  if (Object.keys(images).length === 0) throw new Error(`build-bases.sh named no images:\n${output}`);
  return images;
}

async function allTargetsUp(prometheus) {
  const jobs = readManifests().map((m) => m.name).concat('prometheus');
  await until('every Prometheus target up', TARGETS_TIMEOUT_MS, async () => {
    const body = await (await fetch(`${prometheus}/api/v1/targets`)).json();
    const active = body.data.activeTargets;
    const up = new Set(active.filter((a) => a.health === 'up').map((a) => a.labels.job));
    const missing = jobs.filter((j) => !up.has(j));
    return { done: missing.length === 0, why: `not up: ${missing.join(', ')}` };
  });
  log(`all ${jobs.length} Prometheus targets up: ${jobs.join(', ')}`);
}

/**
 * Every scenario file of the newest smoke run: passed (thresholds included), no errors or non-2xx, every response
 * validated, the server's series read from Prometheus.
 */
function checkResults() {
  const runs = fs.readdirSync(RESULTS_DIR).filter((d) => d.endsWith('-smoke')).sort();
  if (runs.length === 0) throw new Error(`no smoke run in ${RESULTS_DIR}`);
  const dir = path.join(RESULTS_DIR, runs[runs.length - 1]);
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
  if (problems.length > 0) throw new Error(`smoke results in ${dir}:\n  ${problems.join('\n  ')}`);
  log(`results checked: ${files.length} scenarios, ${responses} responses checked, none invalid, no errors, server series in each, report.html written (${dir})`);
  for (const [name, info] of Object.entries(run.targets)) log(`  ${name}: ${info.runtime ? `${info.runtime.name} ${info.runtime.version}` : 'runtime not reported'}`);
  return dir;
}

/**
 * The run's report in headless Chromium (where load's dependencies and a Chromium are installed: `make test` installs
 * both) and `make compare` of the run against itself: a significance-tested "no change", exit 0.
 */
async function checkReportAndCompare(dir) {
  let browserCheck;
  try {
    browserCheck = require('../load/test/report-browser');
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
  if (argv.includes('--if-engine')) {
    const { code, output } = await run(path.join(ROOT, 'docker', 'ensure-engine.sh'), [], { show: true });
    if (code === ENGINE_UNAVAILABLE) {
      log(`SKIPPED: no Docker engine here (${output.trim().split('\n').pop()})`);
      return 0;
    }
    if (code !== 0) throw new Error(`preparing the Docker engine failed (exit ${code})`);
  } else {
    await mustRun('preparing the Docker engine', path.join(ROOT, 'docker', 'ensure-engine.sh'), [], { show: true });
  }

  const mode = await chooseBaseImages();
  const baseImages = mode === 'offline' ? await offlineBaseImages() : {};
  const offset = Number(process.env.SMOKE_PORT_OFFSET || 30000);
  const env = composeEnv(baseImages, offset, prepareResultsDir());
  const compose = (args, options = {}) => ['docker', ['compose', ...args], Object.assign({ env }, options)];
  const allServices = (await mustRun('listing services', ...compose(['config', '--services']))).trim().split('\n');
  const services = mode === 'offline' ? allServices.filter((s) => !NO_OFFLINE_STAND_IN.includes(s)) : allServices;
  if (mode === 'offline') {
    log(`base images: offline stand-ins (${Object.values(baseImages).join(', ')})`);
    log(`left out: ${NO_OFFLINE_STAND_IN.join(', ')} (no offline stand-in); the dashboards are checked by running every panel's query against this Prometheus`);
  } else {
    log('base images: upstream (pinned tags in docker-compose.yml)');
  }

  const prometheus = `http://127.0.0.1:${env.PROMETHEUS_PORT}`;
  let failure = null;
  try {
    const built = services.filter((s) => !PULLED.includes(s));
    log(`building images for ${built.join(', ')} (build output: .smoke/build.log)`);
    const buildStarted = Date.now();
    const build = await run(...compose(['build', ...built]));
    fs.writeFileSync(path.join(STATE_DIR, 'build.log'), build.output);
    if (build.code !== 0) throw new Error(`docker compose build failed (exit ${build.code}):\n${build.output.slice(-4000)}`);
    log(`images built in ${Math.round((Date.now() - buildStarted) / 1000)} s`);
    log(`starting the stack (project ${PROJECT}; waiting up to ${UP_TIMEOUT_S} s for every healthcheck)`);
    await mustRun('docker compose up', ...compose(['up', '-d', '--wait', '--wait-timeout', String(UP_TIMEOUT_S), ...services]));
    await allTargetsUp(prometheus);
    log('running the smoke suite inside the load container');
    await mustRun('the smoke suite', ...compose(['exec', '-T', 'load', 'node', 'src/run-suite.js', 'smoke'], { show: true, timeoutMs: SUITE_TIMEOUT_MS }));
    await checkReportAndCompare(checkResults());
    await checkDashboards(prometheus);
    if (services.includes('grafana')) log(await assertGrafana(`http://127.0.0.1:${env.GRAFANA_PORT}`));
    else log('Grafana check SKIPPED: the offline base images have no stand-in for Grafana, so it was left out; the dashboards were checked by their queries against Prometheus only');
    await checkContract(offset);
  } catch (err) {
    failure = err;
    const logs = await run(...compose(['logs', '--no-color', '--tail', '30']));
    console.log(logs.output);
  } finally {
    log('docker compose down -v');
    const down = await run(...compose(['down', '-v', '--remove-orphans']));
    if (down.code !== 0 && !failure) failure = new Error(`docker compose down failed:\n${down.output}`);
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  if (failure) {
    console.error(`smoke: FAILED after ${seconds} s: ${failure.message}`);
    return 1;
  }
  log(`PASSED in ${seconds} s (${mode} base images${mode === 'offline' ? `, without ${NO_OFFLINE_STAND_IN.join(', ')}` : ''})`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`smoke: ${err.message}`);
    process.exit(1);
  },
);
