#!/usr/bin/env node
'use strict';
// `make swarm`: docker-compose.yml deployed as a stack to a Docker Swarm, on this machine's engine as a single-node
// swarm carrying both roles (docker/README.md, "The load generator on its own node", for two nodes). The images are built
// as `make images` builds them; the engine joins a swarm of its own if it is in none (and leaves it at the end); the
// node gets the labels lab.load=true and lab.sut=true; the stack is deployed with every published port shifted
// (SWARM_PORT_OFFSET, default in compose-lab.js). Then: every service has its one task running where its placement
// says, reached by DNS round robin and published in host mode; every Prometheus target is up; a suite passes (run
// through the driver's HTTP API, its results checked as make smoke checks them); Grafana answers as make smoke checks
// it, where its image runs (upstream). Always ends with `docker stack rm` and a check that no service, container,
// network or volume of the stack is left.
//
//   SWARM_SUITE=smoke node docker/swarm.js [--if-engine]
//
// SWARM_SUITE: the suite run through the stack, smoke by default. make test runs soak-short, one scenario or two per
// service: what the stack adds to compose is its networking and placement, which every service's answers and series
// show; every approach under load is smoke's part, already run in compose by the same make test.
//
// --if-engine: where no Docker engine runs or can be started, say so and exit 0 (make test uses it).
const path = require('node:path');
const { ROOT, readManifests, servicesOf } = require('@lab/lab-topology/manifests');
const { composeLab, allTargetsUp, exitWith, run, mustRun, PORT_OFFSETS } = require('./compose-lab');
const { runSuite } = require('./driver');
const { checkSuiteResults } = require('./suite-results');
const { assertGrafana } = require('./grafana-check');
const { until } = require('@lab/test-kit');

const STACK = 'lab-swarm';
const STATE_DIR = path.join(ROOT, '.swarm');
const ROLE_LABELS = ['lab.load=true', 'lab.sut=true'];
// Bounds on a hung step: each is reached in seconds to a minute on a healthy engine (the JVM pre-touches its heap).
const TASKS_TIMEOUT_MS = 300000;
const REMOVED_TIMEOUT_MS = 120000;
const GWBRIDGE = 'docker_gwbridge';

const log = (message) => console.log(`swarm: ${message}`);

const lines = (output) => output.split('\n').map((l) => l.trim()).filter(Boolean);

/** This engine in a swarm, as a manager, with both role labels: what was changed, so that cleanUp() can undo it. */
async function joinSwarm() {
  const state = (await mustRun('reading the swarm state', 'docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'])).trim();
  let initialized = false;
  // docker swarm init makes the docker_gwbridge network and docker swarm leave keeps it: removed at the end if new.
  const hadGwbridge = (await run('docker', ['network', 'inspect', GWBRIDGE])).code === 0;
  if (state !== 'active') {
    // One node on loopback: nothing else has to reach it.
    await mustRun('docker swarm init', 'docker', ['swarm', 'init', '--advertise-addr', '127.0.0.1']);
    initialized = true;
    log('docker swarm init: this engine is a single-node swarm until the end of the check');
  }
  const node = (await mustRun('reading the node id', 'docker', ['info', '--format', '{{.Swarm.NodeID}}'])).trim();
  const before = JSON.parse(await mustRun('reading the node labels', 'docker', ['node', 'inspect', '--format', '{{json .Spec.Labels}}', node])) || {};
  const added = ROLE_LABELS.filter((label) => !(label.split('=')[0] in before));
  await mustRun('labelling the node', 'docker', ['node', 'update', ...ROLE_LABELS.flatMap((label) => ['--label-add', label]), node]);
  log(`node ${node} labelled ${ROLE_LABELS.join(', ')}: the services under test and the load driver on the one node`);
  return { initialized, node, added, hadGwbridge };
}

/**
 * Undoes joinSwarm(): the labels it added, and the swarm it made, unless containers are running: `docker swarm leave`
 * cuts the embedded DNS of every running container on this engine (Docker 20.10; seen here: a compose lab's services
 * no longer resolved each other's names, for good), so then the engine stays a single-node swarm, which is harmless.
 */
async function leaveSwarm({ initialized, node, added, hadGwbridge }) {
  if (initialized) {
    const running = lines((await mustRun('listing running containers', 'docker', ['ps', '-q'])).trim());
    if (running.length) {
      log(`the engine stays a single-node swarm: leaving would cut the DNS of the ${running.length} containers running (docker swarm leave --force once they are down)`);
      return;
    }
    await mustRun('docker swarm leave', 'docker', ['swarm', 'leave', '--force']);
    if (!hadGwbridge) await mustRun(`removing ${GWBRIDGE}`, 'docker', ['network', 'rm', GWBRIDGE]);
    log(`docker swarm leave: the engine is back out of swarm mode${hadGwbridge ? '' : `, ${GWBRIDGE} removed`}`);
  } else if (added.length) {
    await mustRun('removing the labels', 'docker', ['node', 'update', ...added.flatMap((label) => ['--label-rm', label.split('=')[0]]), node]);
  }
}

/** The stack's environment: the compose check's (ports shifted, images tagged, results folder), no Grafana offline. */
function stackEnv(lab) {
  return Object.assign({}, lab.env, { GRAFANA_REPLICAS: lab.services.includes('grafana') ? '1' : '0' });
}

/** Every service of the stack: {name (without the stack's prefix), replicas wanted, running tasks}. */
async function services() {
  const output = await mustRun('listing the stack\'s services', 'docker', ['stack', 'services', STACK, '--format', '{{.Name}} {{.Replicas}}']);
  return lines(output).map((line) => {
    const [name, replicas] = line.split(' ');
    const [running, wanted] = replicas.split('/').map(Number);
    return { name: name.slice(STACK.length + 1), running, wanted };
  });
}

/** Waits until every long-running service has its task running and the topology one-shot has completed. */
async function tasksRunning() {
  await until('every task of the stack running', TASKS_TIMEOUT_MS, async () => {
    const list = await services();
    const waiting = list.filter((s) => s.name !== 'topology' && s.running < s.wanted);
    const topology = lines((await run('docker', ['service', 'ps', `${STACK}_topology`, '--format', '{{.CurrentState}}'])).output);
    const written = topology.some((state) => state.startsWith('Complete'));
    return { done: list.length > 0 && waiting.length === 0 && written, why: `waiting for ${waiting.map((s) => s.name).concat(written ? [] : ['topology to complete']).join(', ')}` };
  });
  log('every service\'s task running; topology wrote the targets and completed');
}

/** What a swarm needs of each service, read back from the engine: DNS round robin, host-mode ports, its role's node. */
async function checkServices() {
  const underTest = servicesOf(readManifests()).map((m) => m.name);
  const problems = [];
  for (const { name, running } of await services()) {
    const spec = JSON.parse(await mustRun(`inspecting ${name}`, 'docker', ['service', 'inspect', '--format', '{{json .Spec}}', `${STACK}_${name}`]));
    const mode = spec.EndpointSpec && spec.EndpointSpec.Mode;
    if (mode !== 'dnsrr') problems.push(`${name}: endpoint mode ${mode}, not dnsrr`);
    for (const port of (spec.EndpointSpec && spec.EndpointSpec.Ports) || []) {
      if (port.PublishMode !== 'host') problems.push(`${name}: port ${port.TargetPort} published in ${port.PublishMode} mode`);
    }
    const role = underTest.includes(name) ? 'lab.sut' : 'lab.load';
    const constraints = (spec.TaskTemplate.Placement || {}).Constraints || [];
    if (!constraints.includes(`node.labels.${role} == true`)) problems.push(`${name}: placement ${JSON.stringify(constraints)}, not on ${role} nodes`);
    if (name !== 'topology' && running > 1) problems.push(`${name}: ${running} tasks; Prometheus scrapes one per service`);
  }
  if (problems.length) throw new Error(`the stack's services:\n  ${problems.join('\n  ')}`);
  log('every service: DNS round robin (no virtual IP), ports in host mode, placed by its role label');
}

/** docker stack rm, then nothing of the stack left: services, containers, networks; its volumes removed. */
async function removeStack() {
  log(`docker stack rm ${STACK}`);
  const label = `label=com.docker.stack.namespace=${STACK}`;
  // Asked again until it is accepted: a stack rm refused once (a failed make test's check left its whole stack and the
  // swarm behind, with no word of why) must not leave the stack for good.
  let refused = null; // null: not asked yet; '' accepted
  await until('the stack gone', REMOVED_TIMEOUT_MS, async () => {
    if (refused !== '') {
      const removal = await run('docker', ['stack', 'rm', STACK]);
      refused = removal.code === 0 ? '' : `; docker stack rm refused: ${removal.output.trim().split('\n').pop()}`;
    }
    const left = {
      services: lines((await run('docker', ['service', 'ls', '-q', '--filter', label])).output),
      containers: lines((await run('docker', ['ps', '-aq', '--filter', label])).output),
      networks: lines((await run('docker', ['network', 'ls', '-q', '--filter', label])).output),
    };
    const remaining = Object.entries(left).filter(([, ids]) => ids.length);
    return { done: remaining.length === 0, why: remaining.map(([kind, ids]) => `${ids.length} ${kind}`).join(', ') + refused };
  });
  // docker stack rm keeps volumes, as compose down without -v does: this check's are removed.
  const volumes = lines((await run('docker', ['volume', 'ls', '-q', '--filter', label])).output);
  if (volumes.length) await mustRun('removing the stack\'s volumes', 'docker', ['volume', 'rm', ...volumes]);
  log(`stack removed: no service, container or network of it left; ${volumes.length} volumes removed`);
}

async function serviceLogs() {
  for (const { name } of await services().catch(() => [])) {
    console.log((await run('docker', ['service', 'logs', '--no-task-ids', '--tail', '30', `${STACK}_${name}`])).output);
  }
}

async function deployAndCheck(lab) {
  log(`docker stack deploy ${STACK} (images lab/<service>:${lab.env.LAB_IMAGE_TAG}, ports shifted by ${lab.offset})`);
  // --resolve-image never: the images are this engine's own, in no registry.
  await mustRun('docker stack deploy', 'docker', ['stack', 'deploy', '--resolve-image', 'never', '-c', 'docker-compose.yml', STACK], { env: stackEnv(lab) });
  await tasksRunning();
  await checkServices();
  await allTargetsUp(lab.prometheus, log);
  const suite = process.env.SWARM_SUITE || 'smoke';
  log(`running the ${suite} suite through the driver's HTTP API`);
  const run = await runSuite(lab.url('load'), suite, {
    resultsDir: lab.resultsDir,
    onProgress: (status) => log(`${suite}: ${status.completed.length}/${status.scenarios} scenarios`),
  });
  log(`${suite} ${run.verdict}`);
  checkSuiteResults(lab.resultsDir, suite, log);
  if (lab.services.includes('grafana')) log(await assertGrafana(`http://127.0.0.1:${lab.env.GRAFANA_PORT}`));
  else log('Grafana left out (replicas 0): the offline base images have no stand-in for it');
}

async function main(argv) {
  const started = Date.now();
  const lab = composeLab({ project: STACK, stateDir: STATE_DIR, offset: Number(process.env.SWARM_PORT_OFFSET || PORT_OFFSETS.swarm), log });
  if (!(await lab.prepare({ ifEngine: argv.includes('--if-engine') }))) return 0;
  let swarm = null;
  return lab.session(started, deployAndCheck, {
    up: async () => {
      await lab.build();
      swarm = await joinSwarm();
    },
    logs: serviceLogs,
    down: [removeStack, () => swarm && leaveSwarm(swarm)],
  });
}

exitWith('swarm', main);
