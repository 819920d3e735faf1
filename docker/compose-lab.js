'use strict';
// The containerized lab on a real Docker engine, for the scripts that drive it (`make smoke`, `make chaos`): the
// engine made ready, upstream or offline base images, a compose project of its own with every port shifted (so a
// running lab is left alone) and its own results folder, build, up, every Prometheus target up, logs, down.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { readManifests, ROOT } = require('@lab/lab-topology/manifests');
const { gitCommit } = require('@lab/lab-topology/checkout');
const { PROMETHEUS_PORT } = require('@lab/lab-topology/topology');
const { profileTokenFor } = require('@lab/lab-topology/profile-token');
const { until } = require('@lab/test-kit');

// The load image's own user (the official node images' `node`): as root, the results folder is handed to it.
const LOAD_IMAGE_UID = 1000;
const PULL_TIMEOUT_MS = 60000;
const UP_TIMEOUT_S = 300;
const TARGETS_TIMEOUT_MS = 120000;
const ENGINE_UNAVAILABLE = 3;
// Every check runs its lab with the ports shifted by its own offset, so that none meets another's or a lab in use
// (offset 0; the native lab test uses 20000), and below Linux's ephemeral ports (32768 and up), where a loopback
// client's port can hold the very port a lab is to publish (seen: the soak's Prometheus, then on 41090, did not start).
const PORT_OFFSETS = { up: 18000, swarm: 19000, smoke: 21000, chaos: 22000, soak: 23000, matrix: 15000, hostile: 16000, attach: 13000 };
// The one tag of the checks' images (smoke, chaos, soak, swarm and make test's test-images stage): built once per
// `make test` and shared by every check, never a lab in use's (latest).
const CHECK_IMAGE_TAG = 'lab-check';
// Written by `make test-images` (docker/check-images.js): the base images its build used, so that the checks after it
// in the same `make test` (LAB_CHECK_IMAGES_BUILT=1, set by scripts/test-stages.js) run its images as they are.
const CHECK_IMAGES_FILE = path.join(ROOT, '.images', 'check-images.json');
const GRAFANA_PORT = 3000;
// Services whose images are used as they are, not built.
const PULLED = ['prometheus', 'grafana'];
// Grafana has no stand-in built from Debian or registry packages.
const NO_OFFLINE_STAND_IN = ['grafana'];

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
function prepareResultsDir(resultsDir) {
  fs.mkdirSync(resultsDir, { recursive: true });
  if (process.getuid() !== 0) return { uid: process.getuid(), gid: process.getgid() };
  fs.chownSync(resultsDir, LOAD_IMAGE_UID, LOAD_IMAGE_UID);
  return { uid: LOAD_IMAGE_UID, gid: LOAD_IMAGE_UID };
}

/**
 * The compose project's environment: its own name, ports, results dir and base images, no demo loop, and a profile
 * token for its driver and services (the user's, or one made for this lab: every compose command of it shares it).
 */
function composeEnv({ project, resultsDir, baseImages, offset, resultsOwner, imageTag }) {
  const env = Object.assign({}, process.env, baseImages, {
    LAB_PROJECT_NAME: project,
    LAB_PROFILE_TOKEN: profileTokenFor(process.env),
    LAB_IMAGE_TAG: imageTag,
    LAB_RESULTS_DIR: resultsDir,
    LAB_UID: String(resultsOwner.uid),
    LAB_GID: String(resultsOwner.gid),
    LOAD_SUITE: 'none',
    LAB_GIT_COMMIT: gitCommit(),
    LAB_IMAGES: Object.entries(imagesOf(baseImages)).map(([name, image]) => `${name}=${image}`).join(','),
  });
  for (const { name, port } of readManifests()) env[portVariable(name)] = String(port + offset);
  env.PROMETHEUS_PORT = String(PROMETHEUS_PORT + offset);
  env.GRAFANA_PORT = String(GRAFANA_PORT + offset);
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
async function chooseBaseImages(log) {
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

async function allTargetsUp(prometheus, log) {
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
 * A compose project of the lab: {project, stateDir (results in stateDir/results), offset (added to every port), log,
 * imageTag (CHECK_IMAGE_TAG unless given: a check never replaces the images of a lab in use)}.
 * prepare() readies the engine and the base images (false where no engine runs and ifEngine allows skipping); build()
 * builds the images of `services` (all but those without an offline stand-in, tagged lab/<service>:<imageTag>), or,
 * after `make test-images` in the same `make test`, uses its images where they are all there; up()
 * builds and starts them and waits for every Prometheus target;
 * compose(args, options) gives run()'s arguments for `docker compose ...` in the project; down() removes it all.
 */
function composeLab({ project, stateDir, offset, log, imageTag = CHECK_IMAGE_TAG }) {
  const lab = { project, stateDir, offset, imageTag, resultsDir: path.join(stateDir, 'results') };
  lab.compose = (args, options = {}) => ['docker', ['compose', ...args], Object.assign({ env: lab.env }, options)];
  lab.url = (name) => `http://127.0.0.1:${(readManifests().find((m) => m.name === name) || { port: 0 }).port + offset}`;

  lab.prepare = async ({ ifEngine = false } = {}) => {
    const engine = path.join(ROOT, 'docker', 'ensure-engine.sh');
    const { code, output } = await run(engine, [], { show: true });
    if (code === ENGINE_UNAVAILABLE && ifEngine) {
      log(`SKIPPED: no Docker engine here (${output.trim().split('\n').pop()})`);
      return false;
    }
    if (code !== 0) throw new Error(`preparing the Docker engine failed (exit ${code})`);
    const built = builtThisRun(imageTag);
    if (built) log(`using the images make test built (lab/<service>:${imageTag})`);
    lab.reuse = Boolean(built);
    lab.mode = built ? built.mode : await chooseBaseImages(log);
    const baseImages = built ? built.baseImages : lab.mode === 'offline' ? await offlineBaseImages() : {};
    lab.baseImages = baseImages;
    lab.env = composeEnv({ project, resultsDir: lab.resultsDir, baseImages, offset, resultsOwner: prepareResultsDir(lab.resultsDir), imageTag });
    lab.prometheus = `http://127.0.0.1:${lab.env.PROMETHEUS_PORT}`;
    const all = (await mustRun('listing services', ...lab.compose(['config', '--services']))).trim().split('\n');
    lab.services = lab.mode === 'offline' ? all.filter((s) => !NO_OFFLINE_STAND_IN.includes(s)) : all;
    if (lab.mode === 'offline') {
      log(`base images: offline stand-ins (${Object.values(baseImages).join(', ')})`);
      log(`left out: ${NO_OFFLINE_STAND_IN.join(', ')} (no offline stand-in)`);
    } else {
      log('base images: upstream (pinned tags in docker-compose.yml)');
    }
    return true;
  };

  lab.build = async () => {
    const built = lab.services.filter((s) => !PULLED.includes(s));
    if (lab.reuse && (await imagesPresent(lab, built))) return;
    log(`building images for ${built.join(', ')} (build output: ${path.relative(ROOT, path.join(stateDir, 'build.log'))})`);
    const buildStarted = Date.now();
    const build = await run(...lab.compose(['build', ...built]));
    fs.writeFileSync(path.join(stateDir, 'build.log'), build.output);
    if (build.code !== 0) throw new Error(`docker compose build failed (exit ${build.code}):\n${build.output.slice(-4000)}`);
    log(`images built in ${Math.round((Date.now() - buildStarted) / 1000)} s`);
  };

  lab.up = async () => {
    await lab.build();
    log(`starting the stack (project ${project}; waiting up to ${UP_TIMEOUT_S} s for every healthcheck)`);
    await mustRun('docker compose up', ...lab.compose(['up', '-d', '--wait', '--wait-timeout', String(UP_TIMEOUT_S), ...lab.services]));
    await allTargetsUp(lab.prometheus, log);
  };

  lab.logs = async () => console.log((await run(...lab.compose(['logs', '--no-color', '--tail', '30']))).output);

  lab.down = async () => {
    log('docker compose down -v');
    const down = await run(...lab.compose(['down', '-v', '--remove-orphans']));
    if (down.code !== 0) throw new Error(`docker compose down failed:\n${down.output}`);
  };

  /**
   * up(), then body(lab); the services' last logs on a failure; always down(). Prints PASSED or FAILED with the time
   * since `started` and resolves to the exit code (0 or 1). `stages` replaces up, logs and down (a list of steps, each
   * run whatever the others did; the first failure is the one reported) for a lab run another way (a swarm).
   */
  lab.session = async (started, body, stages = {}) => {
    const { up = lab.up, logs = lab.logs, down = [lab.down] } = stages;
    let failure = null;
    try {
      await up();
      await body(lab);
    } catch (err) {
      failure = err;
      await logs();
    } finally {
      for (const step of down) {
        try {
          await step();
        } catch (err) {
          // Said even after an earlier failure: a cleanup that failed is why something is left behind.
          log(`cleaning up failed: ${err.message}`);
          failure = failure || err;
        }
      }
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    if (failure) {
      log(`FAILED after ${seconds} s: ${failure.message}`);
      return 1;
    }
    log(`PASSED in ${seconds} s (${lab.mode} base images${lab.mode === 'offline' ? `, without ${NO_OFFLINE_STAND_IN.join(', ')}` : ''})`);
    return 0;
  };
  return lab;
}

/**
 * A check on the engine that brings up no lab of composeLab's (up-check.js, attach-compose.js): the engine made ready
 * (with --if-engine in argv, one that cannot run here is SKIPPED, exit 0), then body(); PASSED or FAILED with the
 * seconds since the start, resolved to the exit code (0 or 1). body cleans up after itself, failed or not.
 */
async function engineCheck(argv, log, body) {
  const started = Date.now();
  const engine = await run(path.join(ROOT, 'docker', 'ensure-engine.sh'), [], { show: true });
  if (engine.code === ENGINE_UNAVAILABLE && argv.includes('--if-engine')) {
    log(`SKIPPED: no Docker engine here (${engine.output.trim().split('\n').pop()})`);
    return 0;
  }
  if (engine.code !== 0) throw new Error(`preparing the Docker engine failed (exit ${engine.code})`);
  let failure = null;
  try {
    await body();
  } catch (err) {
    failure = err;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  if (failure) {
    log(`FAILED after ${seconds} s: ${failure.message}`);
    return 1;
  }
  log(`PASSED in ${seconds} s`);
  return 0;
}

/** Runs a script's main(argv) and exits with the code it resolves to; an error it throws exits 1, printed as name: message. */
function exitWith(name, main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`${name}: ${err.message}`);
      process.exit(1);
    },
  );
}

/** {mode, baseImages} of the images `make test-images` built for tag in this `make test`; null when it did not. */
function builtThisRun(tag) {
  if (process.env.LAB_CHECK_IMAGES_BUILT !== '1' || !fs.existsSync(CHECK_IMAGES_FILE)) return null;
  const built = JSON.parse(fs.readFileSync(CHECK_IMAGES_FILE, 'utf8'));
  return built.tag === tag ? built : null;
}

/** Whether every image the lab builds for `services` is in the engine's store (a check run alone builds its own). */
async function imagesPresent(lab, services) {
  const images = (await mustRun('listing the images', ...lab.compose(['config', '--images', ...services]))).trim().split('\n');
  const { code } = await run('docker', ['image', 'inspect', ...images]);
  return code === 0;
}

/** Every port a lab publishes with this offset. */
function publishedPorts(offset) {
  return readManifests().map((m) => m.port).concat(PROMETHEUS_PORT, GRAFANA_PORT).map((port) => port + offset);
}

module.exports = { composeLab, allTargetsUp, engineCheck, exitWith, run, mustRun, chooseBaseImages, offlineBaseImages, builtThisRun, imagesOf, PORT_OFFSETS, publishedPorts, CHECK_IMAGE_TAG, CHECK_IMAGES_FILE, ENGINE_UNAVAILABLE };
