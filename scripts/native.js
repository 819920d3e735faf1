'use strict';
// `make native`: every component of the lab's manifests (lab-topology: the services, the load driver) and Prometheus
// as local processes on their ports (shifted by LAB_PORT_OFFSET), in the foreground. Ctrl-C or SIGTERM stops every
// child; if one dies, all stop. Settings: LAB_PORT_OFFSET (0), LAB_STATE_DIR (.native: Prometheus data, its config
// and targets), LOAD_SUITE (demo; `none` leaves the load driver idle), LOAD_LOOP (1), PROMETHEUS_BIN (prometheus),
// LAB_EXTRA_SERVICES (folders of more components, each with its service.json).
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, readManifests, servicesOf } = require('../lab-topology/manifests');
const { nativeLab, prometheusTargets, writeTargets } = require('../lab-topology/topology');
const { gitCommit } = require('../lab-topology/checkout');

const STOP_TIMEOUT_MS = 12000; // above each service's 8 s graceful shutdown

function env(name, fallback) {
  return process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name];
}

function prefixLines(name, stream, out) {
  let pending = '';
  stream.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) out.write(`${name.padEnd(15)}| ${line}\n`);
  });
}

const alive = (child) => child.exitCode === null && child.signalCode === null;

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err; // the group is already gone
  }
}

function main() {
  const offset = Number(env('LAB_PORT_OFFSET', '0'));
  if (!Number.isInteger(offset) || offset < 0 || offset > 60000) throw new Error('LAB_PORT_OFFSET must be an integer in [0, 60000]');
  const stateDir = path.resolve(ROOT, env('LAB_STATE_DIR', '.native'));
  fs.mkdirSync(path.join(stateDir, 'prometheus-data'), { recursive: true });
  const manifests = readManifests();
  const { components, prometheus } = nativeLab(offset, manifests);
  // prometheus.yml as it is, beside the targets file it reads (relative to itself).
  const configFile = path.join(stateDir, 'prometheus.yml');
  fs.copyFileSync(path.join(ROOT, 'prometheus.yml'), configFile);
  writeTargets(stateDir, prometheusTargets(manifests, { hostOf: () => '127.0.0.1', offset }));

  const serviceNames = servicesOf(manifests).map((m) => m.name);
  const loadTargets = components.filter((c) => serviceNames.includes(c.name)).map((c) => `${c.name}=${c.url}`).join(',');
  const loadDriverEnv = {
    LOAD_TARGETS: loadTargets,
    RESULTS_DIR: path.join(ROOT, 'results'),
    PROMETHEUS_URL: `http://127.0.0.1:${prometheus.port}`,
    LAB_GIT_COMMIT: gitCommit(),
  };
  const commands = components.map((c) => ({
    name: c.name,
    command: 'make',
    args: ['-s', '-C', c.dir, c.start],
    env: Object.assign({ PORT: String(c.port), HOST: '127.0.0.1' }, c.kind === 'load' ? loadDriverEnv : {}),
  }));
  commands.push({
    name: 'prometheus',
    command: env('PROMETHEUS_BIN', 'prometheus'),
    args: [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(stateDir, 'prometheus-data')}`, `--web.listen-address=127.0.0.1:${prometheus.port}`, '--log.level=warn'],
    env: {},
  });

  const children = [];
  let stopping = false;
  let exitCode = 0;
  const stopAll = (reason, code) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    console.log(`native: ${reason}; stopping ${children.filter(alive).length} processes`);
    for (const child of children) if (alive(child)) signalGroup(child, 'SIGTERM');
    setTimeout(() => {
      for (const child of children) if (alive(child)) signalGroup(child, 'SIGKILL');
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
  };

  for (const c of commands) {
    // Each child leads its own process group, so a stop reaches make's child (the server) too.
    const child = spawn(c.command, c.args, { cwd: ROOT, env: Object.assign({}, process.env, c.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.name = c.name;
    prefixLines(c.name, child.stdout, process.stdout);
    prefixLines(c.name, child.stderr, process.stderr);
    child.on('error', (err) => stopAll(`${c.name} could not start: ${err.message}`, 1));
    child.on('exit', (code, signal) => {
      if (!stopping) stopAll(`${c.name} exited (${signal || code})`, 1);
      if (!children.some(alive)) process.exit(exitCode);
    });
    children.push(child);
  }
  const ports = components.map((c) => `${c.name}=${c.port}`).concat(`prometheus=${prometheus.port}`).join(' ');
  console.log(`native: started ${ports}; load suite ${env('LOAD_SUITE', 'demo')}; Ctrl-C stops everything`);
  process.once('SIGINT', () => stopAll('SIGINT', 0));
  process.once('SIGTERM', () => stopAll('SIGTERM', 0));
}

try {
  main();
} catch (err) {
  console.error(`native: ${err.message}`);
  process.exit(2);
}
