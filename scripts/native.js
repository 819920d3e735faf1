'use strict';
// `make native`: every component of the lab's manifests (lab-topology: the services, the load driver) and Prometheus
// as local processes on their ports (shifted by LAB_PORT_OFFSET), in the foreground. Ctrl-C or SIGTERM stops every
// child. One that ends after it was up is started again, with a backoff (keep-running.js); one that ends before it
// was ever up (its port taken, say) cannot start, and all stop. It exits only once no process it started is left:
// each component is a process group (make and its server), and a group counts until its last process is gone; after
// STOP_TIMEOUT_MS what is left is killed, and a second Ctrl-C kills at once. Settings: LAB_PORT_OFFSET (0),
// LAB_STATE_DIR (.native: Prometheus data, its config and targets), LOAD_SUITE (demo; `none` leaves the load driver
// idle), LOAD_LOOP (1), PROMETHEUS_BIN (prometheus), LAB_EXTRA_SERVICES (folders of more components, each with its
// service.json), LAB_ONLY (component names, comma-separated: start only those, and Prometheus), LAB_RESULTS_DIR
// (results: where the load driver writes its runs, as in compose), LAB_PROFILE_TOKEN (the secret the driver and the
// services share for profiles: unset, one made for this start, lab-topology/profile-token.js). The load driver is
// given Prometheus' targets folder, where its POST /attach names an attached service's agent (make attach's).
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, readManifests, servicesOf } = require('@lab/lab-topology/manifests');
const { nativeLab, prometheusTargets, writeTargets, TARGETS_DIR } = require('@lab/lab-topology/topology');
const { gitCommit } = require('@lab/lab-topology/checkout');
const { profileTokenFor } = require('@lab/lab-topology/profile-token');
const { stopGroups } = require('./process-groups');
const { keepRunning } = require('./keep-running');

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

/** The manifests LAB_ONLY names (all when it is unset); an unknown name is an error. */
function selected(manifests) {
  const only = env('LAB_ONLY', '');
  if (only === '') return manifests;
  const names = only.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !manifests.some((m) => m.name === n));
  if (unknown.length > 0) throw new Error(`LAB_ONLY: no component ${unknown.join(', ')}; components: ${manifests.map((m) => m.name).join(', ')}`);
  return manifests.filter((m) => names.includes(m.name));
}

function main() {
  const offset = Number(env('LAB_PORT_OFFSET', '0'));
  if (!Number.isInteger(offset) || offset < 0 || offset > 60000) throw new Error('LAB_PORT_OFFSET must be an integer in [0, 60000]');
  const stateDir = path.resolve(ROOT, env('LAB_STATE_DIR', '.native'));
  fs.mkdirSync(path.join(stateDir, 'prometheus-data'), { recursive: true });
  const manifests = selected(readManifests());
  const { components, prometheus } = nativeLab(offset, manifests);
  // prometheus.yml as it is, beside the targets file it reads (relative to itself).
  const configFile = path.join(stateDir, 'prometheus.yml');
  fs.copyFileSync(path.join(ROOT, 'prometheus.yml'), configFile);
  writeTargets(stateDir, prometheusTargets(manifests, { hostOf: () => '127.0.0.1', offset }));

  const serviceNames = servicesOf(manifests).map((m) => m.name);
  const loadTargets = components.filter((c) => serviceNames.includes(c.name)).map((c) => `${c.name}=${c.url}`).join(',');
  const loadDriverEnv = {
    LOAD_TARGETS: loadTargets,
    RESULTS_DIR: path.resolve(ROOT, env('LAB_RESULTS_DIR', 'results')),
    PROMETHEUS_URL: `http://127.0.0.1:${prometheus.port}`,
    // Where the driver names an attached service's agent for Prometheus (POST /attach): the folder it reads targets from.
    LOAD_SCRAPE_TARGETS_DIR: path.join(stateDir, TARGETS_DIR),
    LAB_GIT_COMMIT: gitCommit(),
  };
  // One for this start, restarts included, and for the components alone: Prometheus profiles nothing.
  const profileToken = profileTokenFor(process.env);
  const commands = components.map((c) => ({
    name: c.name,
    command: 'make',
    args: ['-s', '-C', c.dir, c.start],
    env: Object.assign({ PORT: String(c.port), HOST: '127.0.0.1', LAB_PROFILE_TOKEN: profileToken }, c.kind === 'load' ? loadDriverEnv : {}),
    healthUrl: `${c.url}/healthz`,
  }));
  commands.push({
    name: 'prometheus',
    command: env('PROMETHEUS_BIN', 'prometheus'),
    args: [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(stateDir, 'prometheus-data')}`, `--web.listen-address=127.0.0.1:${prometheus.port}`, '--log.level=warn'],
    env: {},
    healthUrl: `http://127.0.0.1:${prometheus.port}/-/ready`,
  });

  // Every process group started and not yet known to be empty, restarts included; a leader's pid is its group's id.
  const groups = [];
  const runners = [];
  let stopping = null;
  const stopAll = (reason, code) => {
    if (stopping) return;
    for (const runner of runners) runner.stop(); // before the groups are listed: no start can follow the stop
    console.log(`native: ${reason}; stopping ${commands.length} components`);
    stopping = stopGroups(groups.map((g) => g.pgid), STOP_TIMEOUT_MS);
    stopping.done.then(({ killed, left }) => {
      const named = (pgids) => groups.filter((g) => pgids.includes(g.pgid)).map((g) => g.name).join(', ');
      if (killed.length > 0) console.log(`native: ${named(killed)} still running after ${STOP_TIMEOUT_MS} ms (or a second stop): killed`);
      if (left.length > 0) console.log(`native: ${named(left)} could not be killed`);
      process.exit(killed.length > 0 || left.length > 0 ? 1 : code);
    });
  };
  /** What is left of an ended component's group (its server, if only make died) is stopped before it starts again. */
  const emptyGroup = (pgid) => stopGroups([pgid], STOP_TIMEOUT_MS).done.then(({ left }) => {
    const index = groups.findIndex((g) => g.pgid === pgid);
    if (left.length === 0 && !stopping && index >= 0) groups.splice(index, 1);
  });

  for (const c of commands) {
    const start = (restarts) => {
      // Its own process group, so a stop reaches make's child (the server) too, and the stop can wait for both.
      const env = Object.assign({}, process.env, c.env, { LAB_RESTARTS: String(restarts) });
      const child = spawn(c.command, c.args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      prefixLines(c.name, child.stdout, process.stdout);
      prefixLines(c.name, child.stderr, process.stderr);
      if (child.pid !== undefined) groups.push({ name: c.name, pgid: child.pid });
      return child;
    };
    const onCannotStart = (reason) => stopAll(reason, 1);
    runners.push(keepRunning({ name: c.name, start, healthUrl: c.healthUrl, emptyGroup, onCannotStart, log: (line) => console.log(`native: ${line}`) }));
  }
  const ports = components.map((c) => `${c.name}=${c.port}`).concat(`prometheus=${prometheus.port}`).join(' ');
  console.log(`native: started ${ports}; load suite ${env('LOAD_SUITE', 'demo')}; Ctrl-C stops everything`);
  // The first signal stops everything gracefully; a second one kills what is left at once. SIGHUP too: a closed
  // terminal would otherwise end this process alone, and the components, each in its own group, would live on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => (stopping ? stopping.hurry() : stopAll(signal, 0)));
  }
}

try {
  main();
} catch (err) {
  console.error(`native: ${err.message}`);
  process.exit(2);
}
