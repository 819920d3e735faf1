#!/usr/bin/env node
'use strict';
// `make test`'s check of the lab's agents in containers, as agents/README.md tells a user to put them there: a compose
// project of a user's own (here json-server and WireMock, nobody's images but the base runtimes', each service's
// code bind-mounted), `make attach-override`'s override for each (attach-override.js: the agent mounted
// read-only, the variable that loads it, its port on the host's loopback), `docker compose up`, then make attach from
// the host against each published endpoint and agent. Asserted as properties, never timings: each run's every load
// has the agent's figures (read through make attach's Prometheus, which found the agent in its file-based targets),
// every load was profiled through the agent inside the container, and json-server's longest block holds the stringify
// of its route. Then `docker compose down` and nothing is left.
//
//   node docker/attach-compose.js [--if-engine]
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test uses it).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { ROOT } = require('@lab/lab-topology/manifests');
const { tempDir, until, answersOk } = require('@lab/test-kit');
const { run, mustRun, engineCheck, exitWith, chooseBaseImages, offlineBaseImages, builtThisRun, imagesOf, PORT_OFFSETS, CHECK_IMAGE_TAG } = require('./compose-lab');
const { overrideYaml } = require('./attach-override');
const { JSON_SERVER_DIR, JSON_SERVER_BIN, WIREMOCK, writeDb, writeStubs } = require('@lab/tests/integration/attach-targets/targets');

const PROJECT = 'lab-attach-check';
// make attach's driver and Prometheus, and the user's services and agents, on ports of this check's own
// (compose-lab.js' PORT_OFFSETS): the services and agents beside the lab's ports, not on them.
const OFFSET = PORT_OFFSETS.attach;
const PORTS = { api: 3100 + OFFSET, mock: 3101 + OFFSET, apiAgent: 9464 + OFFSET, mockAgent: 9465 + OFFSET };
// Bounds on a hung step, never timings.
const START_TIMEOUT_MS = 120000;
const ATTACH_TIMEOUT_MS = 900000;
// Each load's window: two seconds, as the native test's, so each holds a profile and a few scrapes.
const ATTACH_SECONDS = '2';

const log = (message) => console.log(`attach-compose: ${message}`);

/** The user's compose file: json-server and WireMock on the lab's Node 24 and JRE base images, code bind-mounted. */
function userCompose(images) {
  return `services:
  api:
    image: ${JSON.stringify(images.NODE24_IMAGE)}
    command: ["node", "/srv/json-server/${JSON_SERVER_BIN}", "--quiet", "--host", "0.0.0.0", "--port", "3000", "/data/db.json"]
    volumes:
      - { type: bind, source: ${JSON.stringify(JSON_SERVER_DIR)}, target: /srv/json-server, read_only: true }
      - { type: bind, source: "./data", target: /data }
    ports: ["127.0.0.1:${PORTS.api}:3000"]
  mock:
    image: ${JSON.stringify(images.JRE_IMAGE)}
    command: ["java", "-jar", "/srv/wiremock.jar", "--port", "8080", "--root-dir", "/stubs", "--disable-banner", "--no-request-journal"]
    volumes:
      - { type: bind, source: ${JSON.stringify(WIREMOCK)}, target: /srv/wiremock.jar, read_only: true }
      - { type: bind, source: "./stubs", target: /stubs, read_only: true }
    ports: ["127.0.0.1:${PORTS.mock}:8080"]
`;
}

/** The base images the lab's own images are built on: those make test's image stage used, else upstream or stand-ins. */
async function baseImages() {
  const built = builtThisRun(CHECK_IMAGE_TAG);
  if (built) return imagesOf(built.baseImages);
  return imagesOf((await chooseBaseImages(log)) === 'offline' ? await offlineBaseImages() : {});
}

/** make attach (scripts/attach.js) from the host, as a user runs it: {code, output}. */
function attach(env, token, resultsDir) {
  return run(process.execPath, [path.join(ROOT, 'scripts', 'attach.js')], {
    env: Object.assign({}, process.env, { ATTACH_PORT_OFFSET: String(OFFSET), ATTACH_SECONDS, LAB_PROFILE_TOKEN: token, LAB_RESULTS_DIR: resultsDir }, env),
    timeoutMs: ATTACH_TIMEOUT_MS,
  });
}

/** The run's run.json and files, after checking make attach ended well; kind: the agent it had to find. */
function attachedRun(result, kind) {
  if (result.code !== 0) throw new Error(`make attach (${kind} agent) exited ${result.code}:\n${result.output.slice(-4000)}`);
  const report = /^attach: report: (.+)$/m.exec(result.output);
  if (!report) throw new Error(`make attach (${kind} agent) wrote no report:\n${result.output.slice(-2000)}`);
  const dir = path.dirname(report[1]);
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
  const verdict = run.attachVerdict;
  if (!verdict || verdict.agent !== kind) throw new Error(`the ${kind} agent in the container was not found: ${JSON.stringify(verdict && { agent: verdict.agent, missing: verdict.missing })}`);
  const failed = verdict.loads.filter((l) => !l.passed);
  if (failed.length > 0) throw new Error(`loads failed: ${failed.map((l) => `${l.name} (${l.problems})`).join('; ')}`);
  return { verdict, files: fs.readdirSync(dir) };
}

/** json-server's run: lag and ELU at every load, one CPU profile each, and the route's stringify in the longest block. */
function checkNodeRun(result) {
  const { verdict, files } = attachedRun(result, 'node');
  if (verdict.missing.length > 0) throw new Error(`figures missing: ${verdict.missing.join(', ')}`);
  for (const load of verdict.loads) {
    for (const field of ['lagMaxMs', 'elu']) if (typeof load[field] !== 'number') throw new Error(`${load.name}: no ${field} from the agent (${load[field]})`);
  }
  const profiles = files.filter((f) => f.endsWith('.cpuprofile')).length;
  if (profiles !== verdict.loads.length) throw new Error(`${profiles} CPU profiles for ${verdict.loads.length} loads`);
  const frames = verdict.longest.stacks.flatMap((s) => s.stack);
  if (!frames.some((f) => /^stringify /.test(f))) throw new Error(`no stringify among the longest block's stacks: ${JSON.stringify(verdict.longest.stacks)}`);
  log(`json-server: ${verdict.loads.length} loads, each with the agent's lag and ELU and a CPU profile; longest block ${verdict.longest.ms} ms (${verdict.longest.name}), stringify in it`);
}

/** WireMock's run: the probe at every load, GC pauses seen, one JFR recording each, the heaviest stacks. */
function checkJvmRun(result) {
  const { verdict, files } = attachedRun(result, 'jvm');
  for (const load of verdict.loads) if (typeof load.probeP99Ms !== 'number') throw new Error(`${load.name}: the probe did not run`);
  if (!verdict.loads.some((l) => typeof l.gcPauseMaxMs === 'number')) throw new Error('no load has the agent\'s GC pauses');
  const recordings = files.filter((f) => f.endsWith('.jfr')).length;
  if (recordings !== verdict.loads.length) throw new Error(`${recordings} JFR recordings for ${verdict.loads.length} loads`);
  if (!verdict.heaviest || verdict.heaviest.stacks.length === 0) throw new Error('no heaviest stacks from the JFR recordings');
  log(`WireMock: ${verdict.loads.length} loads, each probed and recorded; GC pauses and the heaviest stacks read`);
}

async function checkInContainers(dir, token) {
  const images = await baseImages();
  log(`the user's services on ${images.NODE24_IMAGE} and ${images.JRE_IMAGE}`);
  fs.mkdirSync(path.join(dir, 'data'));
  writeDb(path.join(dir, 'data'));
  fs.mkdirSync(path.join(dir, 'stubs'));
  writeStubs(path.join(dir, 'stubs'));
  fs.writeFileSync(path.join(dir, 'compose.yml'), userCompose(images));
  fs.writeFileSync(path.join(dir, 'compose.lab-agent-api.yml'), overrideYaml('api', 'node', PORTS.apiAgent));
  fs.writeFileSync(path.join(dir, 'compose.lab-agent-mock.yml'), overrideYaml('mock', 'jvm', PORTS.mockAgent));
  const compose = (args) => ['docker', ['compose', '--project-directory', dir, '-p', PROJECT, '-f', path.join(dir, 'compose.yml'), '-f', path.join(dir, 'compose.lab-agent-api.yml'), '-f', path.join(dir, 'compose.lab-agent-mock.yml'), ...args], { env: Object.assign({}, process.env, { LAB_PROFILE_TOKEN: token }) }];
  try {
    log(`docker compose up, with make attach-override's overrides (project ${PROJECT})`);
    await mustRun('docker compose up', ...compose(['up', '-d']));
    const endpoints = { api: `http://127.0.0.1:${PORTS.api}/db`, mock: `http://127.0.0.1:${PORTS.mock}/posts`, apiAgent: `http://127.0.0.1:${PORTS.apiAgent}/healthz`, mockAgent: `http://127.0.0.1:${PORTS.mockAgent}/healthz` };
    for (const [name, url] of Object.entries(endpoints)) {
      await until(`${name} answers ${url}`, START_TIMEOUT_MS, async () => ((await answersOk(url, 5000)) ? { done: true } : { why: (await run(...compose(['logs', '--no-color', '--tail', '5']))).output }));
    }
    const results = path.join(dir, 'results');
    log('make attach on json-server, its Node agent in the container');
    checkNodeRun(await attach({ URL: endpoints.api, AGENT: `http://127.0.0.1:${PORTS.apiAgent}` }, token, results));
    log('make attach on WireMock, its Java agent in the container');
    checkJvmRun(await attach({ URL: endpoints.mock, AGENT: `http://127.0.0.1:${PORTS.mockAgent}`, PROBE_PATH: '/__admin/health' }, token, results));
  } catch (err) {
    console.log((await run(...compose(['logs', '--no-color', '--tail', '30']))).output);
    throw err;
  } finally {
    log('docker compose down');
    const down = await run(...compose(['down', '-v', '--remove-orphans']));
    if (down.code !== 0) log(`docker compose down failed:\n${down.output}`);
  }
}

function main(argv) {
  return engineCheck(argv, log, async () => {
    for (const [what, file] of [['json-server', path.join(JSON_SERVER_DIR, JSON_SERVER_BIN)], ['the Java agent', path.join(ROOT, 'agents', 'jvm-agent', 'target', 'lab-agent.jar')], ['WireMock', WIREMOCK]]) {
      if (!fs.existsSync(file)) throw new Error(`${what} is not installed (${path.relative(ROOT, file)}): make attach-compose installs it`);
    }
    // A secret of this check's, handed to the agents through the override's LAB_PROFILE_TOKEN and to make attach.
    const token = crypto.randomBytes(32).toString('hex');
    const dir = tempDir('lab-attach-compose-');
    try {
      await checkInContainers(dir, token);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

if (require.main === module) exitWith('attach-compose', main);
