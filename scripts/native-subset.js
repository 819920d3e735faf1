'use strict';
// Some of the lab's components as a native lab of their own, started as `make native` starts them (scripts/native.js
// with LAB_ONLY; it adds Prometheus, and the profile token the driver and the services share), on ports shifted by an
// offset so a running `make native` is left alone, its state in a temp folder removed when it stops. `make try` and
// the document-store benchmark start one.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, readManifests } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { answersOk } = require('@lab/test-kit');

// A first start builds nothing, but the JVM and the Node services take some seconds each; a bound, not a timing.
const STARTUP_TIMEOUT_MS = 180000;
const POLL_MS = 500;
const WAITING_SAID_EVERY_MS = 10000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the components named (manifest names) and Prometheus on ports shifted by offset: {components (as
 * lab-topology's nativeLab gives them), prometheus, ready() (resolves once every one answers), stop()}. onOutput gets
 * the lab's output as it comes; say(line) is told what is still awaited while ready() waits; env is more settings of
 * scripts/native.js (make attach's LOAD_ATTACH_ALLOW_REMOTE, say).
 */
function startNativeSubset(names, { offset, onOutput = () => {}, say = () => {}, env = {} }) {
  const { components, prometheus } = nativeLab(offset, readManifests().filter((m) => names.includes(m.name)));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-native-subset-'));
  const lab = spawn(process.execPath, [path.join(ROOT, 'scripts', 'native.js')], {
    cwd: ROOT,
    env: Object.assign({}, process.env, env, { LAB_PORT_OFFSET: String(offset), LAB_STATE_DIR: stateDir, LOAD_SUITE: 'none', LAB_ONLY: names.join(',') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  lab.stdout.on('data', onOutput);
  lab.stderr.on('data', onOutput);
  const exited = new Promise((resolve) => lab.on('exit', resolve));
  const stop = async () => {
    if (lab.exitCode === null && lab.signalCode === null) lab.kill('SIGTERM');
    await exited;
    fs.rmSync(stateDir, { recursive: true, force: true });
  };
  const urls = components.map((c) => `${c.url}/healthz`).concat(`http://127.0.0.1:${prometheus.port}/-/ready`);
  const ready = async () => {
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    let lastSaid = Date.now();
    for (;;) {
      if (lab.exitCode !== null) throw new Error(`the native lab ended before it was up (exit ${lab.exitCode})`);
      const down = (await Promise.all(urls.map(async (u) => ((await answersOk(u)) ? null : u)))).filter(Boolean);
      if (down.length === 0) return;
      if (Date.now() > deadline) throw new Error(`not up after ${STARTUP_TIMEOUT_MS / 1000} s: ${down.join(', ')}`);
      if (Date.now() - lastSaid > WAITING_SAID_EVERY_MS) {
        say(`waiting for ${down.length} of ${urls.length} components to answer`);
        lastSaid = Date.now();
      }
      await sleep(POLL_MS);
    }
  };
  return { components, prometheus, ready, stop };
}

module.exports = { startNativeSubset };
