#!/usr/bin/env node
'use strict';
// `make test`'s check of `make up` and `make down` on a real Docker engine, as a user runs them but in a project of
// its own (lab-up-check, every port shifted, its own results folder; the checks' images): up brings every service to
// healthy with the load driver running its suite and prints where to open the lab, each address answering, and hands
// the driver and every service one profile token it made, shown nowhere; a second up changes nothing (the same
// containers); down with VOLUMES=1 leaves no container, network or volume of the project.
//
//   node docker/up-check.js [--if-engine]
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test uses it).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { readManifests } = require('@lab/lab-topology/manifests');
const { PROMETHEUS_PORT } = require('@lab/lab-topology/topology');
const { until } = require('@lab/test-kit');
const { run, engineCheck, exitWith, PORT_OFFSETS, CHECK_IMAGE_TAG } = require('./compose-lab');
const { projectContainers, projectResources } = require('./lab-project');

const PROJECT = 'lab-up-check';
// Bounds on a hung step, not timings.
const STEP_TIMEOUT_MS = 180000;
const GRAFANA_PORT = 3000;

const log = (message) => console.log(`up-check: ${message}`);

/**
 * The settings a user would give: a project, ports and a results folder of its own, the suite run once; no profile
 * token, as a new user sets none.
 */
function checkEnv(resultsDir) {
  const offset = PORT_OFFSETS.up;
  const env = Object.assign({}, process.env, {
    LAB_PROJECT_NAME: PROJECT,
    LAB_IMAGE_TAG: CHECK_IMAGE_TAG,
    LAB_RESULTS_DIR: resultsDir,
    LOAD_SUITE: 'smoke',
    LOAD_LOOP: '0',
    PROMETHEUS_PORT: String(PROMETHEUS_PORT + offset),
    GRAFANA_PORT: String(GRAFANA_PORT + offset),
  });
  for (const { name, port } of readManifests()) env[`${name.toUpperCase().replace(/-/g, '_')}_PORT`] = String(port + offset);
  delete env.LAB_PROFILE_TOKEN;
  return env;
}

const make = (target, env) => run('make', ['-s', '--no-print-directory', target], { env });

/** The addresses `make up` printed, by what they are: {live page, Prometheus, ...: url}. */
function printedUrls(output) {
  const urls = {};
  for (const match of output.matchAll(/^\s+(the live page|Grafana|Prometheus)\b[^\n]*?(http:\/\/\S+?\/)(?::|\s|$)/gm)) urls[match[1]] = match[2];
  return urls;
}

async function checkUp(env) {
  const up = await make('up', env);
  if (up.code !== 0) throw new Error(`make up exited ${up.code}:\n${up.output.slice(-4000)}`);
  const urls = printedUrls(up.output);
  for (const name of ['the live page', 'Prometheus']) if (!urls[name]) throw new Error(`make up did not print where ${name} is:\n${up.output.slice(-2000)}`);
  if (!/results: \S+/.test(up.output)) throw new Error('make up did not print the results folder');
  const live = urls['the live page'];
  const load = live.replace(/\/$/, '');
  if (!(await fetch(`${urls.Prometheus}-/ready`)).ok) throw new Error(`Prometheus at ${urls.Prometheus} is not ready`);
  const page = await fetch(live);
  if (!page.ok) throw new Error(`the live page ${live} answered ${page.status}`);
  const run = await until('the load driver running its suite', STEP_TIMEOUT_MS, async () => {
    const answer = await fetch(`${load}/runs/latest`);
    const status = answer.ok ? await answer.json() : null;
    return { done: Boolean(status && status.suite === 'smoke'), value: status, why: status ? `suite ${status.suite}` : `HTTP ${answer.status}` };
  });
  log(`make up: every service healthy, the load driver running the ${run.suite} suite (${run.state}); the live page and Prometheus answer`);
  return { load, output: up.output };
}

/** The LAB_PROFILE_TOKEN the container of a service of the project was started with ('' where it has none). */
async function tokenIn(env, service) {
  const id = (await run('docker', ['compose', 'ps', '-q', service], { env })).output.trim();
  const inspected = await run('docker', ['inspect', '--format', '{{json .Config.Env}}', id]);
  if (!id || inspected.code !== 0) throw new Error(`no container of ${service} to inspect`);
  const entry = JSON.parse(inspected.output).find((e) => e.startsWith('LAB_PROFILE_TOKEN='));
  return entry ? entry.slice('LAB_PROFILE_TOKEN='.length) : '';
}

/**
 * make up, with no LAB_PROFILE_TOKEN of the user's, made one and handed it to the driver and every service alike, and
 * it is neither in up's output nor in what the driver answers. Errors give a token's length, never the token.
 */
async function checkProfileToken(env, upOutput, load) {
  const names = readManifests().map((m) => m.name);
  const tokens = await Promise.all(names.map((name) => tokenIn(env, name)));
  const driver = tokens[names.indexOf('load')];
  if (!/^[0-9a-f]{64}$/.test(driver) || tokens.some((t) => t !== driver)) {
    throw new Error(`make up did not hand one token it made to every component: ${names.map((n, i) => `${n} ${tokens[i].length} characters${tokens[i] === driver ? '' : ", not the driver's"}`).join(', ')}`);
  }
  if (upOutput.includes(driver)) throw new Error("make up's output shows the profile token");
  for (const page of ['/runs/latest', '/live/state']) {
    if ((await (await fetch(`${load}${page}`)).text()).includes(driver)) throw new Error(`the driver's ${page} shows the profile token`);
  }
  log(`make up made a profile token and handed it to the driver and the ${names.length - 1} services, shown in neither its output nor the driver's answers`);
}

async function checkSecondUp(env) {
  const before = await containerIds();
  const again = await make('up', env);
  if (again.code !== 0 || !/already running/.test(again.output)) throw new Error(`a second make up did not say the lab runs (exit ${again.code}):\n${again.output.slice(-2000)}`);
  const after = await containerIds();
  if (JSON.stringify(before) !== JSON.stringify(after)) throw new Error(`a second make up changed the containers: ${before.join(' ')} -> ${after.join(' ')}`);
  log(`a second make up: "already running", the same ${after.length} containers`);
}

async function containerIds() {
  const { output } = await run('docker', ['ps', '-a', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.ID}} {{.Names}} {{.CreatedAt}}']);
  return output.split('\n').filter(Boolean).sort();
}

async function leftOfProject() {
  return {
    containers: await projectContainers(PROJECT, { all: true }),
    networks: await projectResources('network', PROJECT),
    volumes: await projectResources('volume', PROJECT),
  };
}

async function checkDown(env, load) {
  // The suite is stopped first, so that its run ends as a stop before the containers go.
  await fetch(`${load}/runs/stop`, { method: 'POST' }).catch(() => {});
  const down = await make('down', Object.assign({}, env, { VOLUMES: '1' }));
  if (down.code !== 0) throw new Error(`make down exited ${down.code}:\n${down.output.slice(-2000)}`);
  const left = Object.entries(await leftOfProject()).filter(([, names]) => names.length > 0);
  if (left.length > 0) throw new Error(`left after make down VOLUMES=1: ${left.map(([kind, names]) => `${kind} ${names.join(', ')}`).join('; ')}`);
  log('make down VOLUMES=1: no container, network or volume of the project left');
}

function main(argv) {
  return engineCheck(argv, log, async () => {
    const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-up-check-'));
    const env = checkEnv(resultsDir);
    try {
      const { load, output } = await checkUp(env);
      await checkProfileToken(env, output, load);
      await checkSecondUp(env);
      await checkDown(env, load);
    } catch (err) {
      console.log((await run('docker', ['compose', 'logs', '--no-color', '--tail', '30'], { env })).output);
      throw err;
    } finally {
      // Whatever failed, nothing of the project stays.
      await run('docker', ['compose', 'down', '--volumes', '--remove-orphans'], { env });
      fs.rmSync(resultsDir, { recursive: true, force: true });
    }
  });
}

if (require.main === module) exitWith('up-check', main);

module.exports = { printedUrls };
