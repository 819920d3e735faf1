'use strict';
// `make native` never leaves a process behind: whatever ends it (SIGINT, SIGTERM, a component that cannot start, a
// port already taken, a stop while a crashed server waits for its restart), it exits only once no process it started
// is left, and every port it used is free again. A server that dies once it was up is started again (with a growing
// delay, its /info counting the restarts) while the others serve on. Every process of a run carries a mark in its
// environment (inherited from scripts/native.js), so the test finds any survivor, whatever its parent became. Each
// case starts a few components (LAB_ONLY) and Prometheus on ports shifted by 22000, so neither a running lab nor the
// other integration test is touched.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, readManifests } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { until, tempDir } = require('@lab/test-kit');

const { INTEGRATION_PORT_OFFSETS } = require('./port-offsets');
const OFFSET = INTEGRATION_PORT_OFFSETS['native-stop'];
const CRASHING = path.join(__dirname, '..', 'fixtures', 'crash-at-start');
// Bounds on a hung lab, not timings: a start under load can take a minute, a stop at most its 12 s grace and a kill.
const UP_TIMEOUT_MS = 240000;
const EXIT_TIMEOUT_MS = 60000;

/** Every process whose environment holds mark: pid and command line. */
function marked(mark) {
  const found = [];
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`LAB_STOP_TEST_MARK=${mark}`)) continue;
      found.push({ pid: Number(entry), cwd: fs.readlinkSync(`/proc/${entry}/cwd`), command: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // gone meanwhile, or a zombie: nothing left of it
    }
  }
  return found;
}

/** The ports among these that nothing can bind on 127.0.0.1 (something still holds them). */
async function portsInUse(ports) {
  const taken = [];
  for (const port of ports) {
    const free = await new Promise((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (!free) taken.push(port);
  }
  return taken;
}

/** scripts/native.js with only `only` (and Prometheus); resolves {child, exited, ports, urls, mark, output()}. */
function startLab(t, only, extraEnv = {}) {
  const mark = `${process.pid}-${t.name.replace(/\W+/g, '-')}`;
  const stateDir = tempDir('lab-stop-');
  const env = Object.assign({}, process.env, { LAB_PORT_OFFSET: String(OFFSET), LAB_STATE_DIR: stateDir, LOAD_SUITE: 'none', LAB_ONLY: only.join(','), LAB_STOP_TEST_MARK: mark }, extraEnv);
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'native.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // Read the manifests as the lab does (LAB_EXTRA_SERVICES included) for its ports.
  const saved = process.env.LAB_EXTRA_SERVICES;
  if (extraEnv.LAB_EXTRA_SERVICES) process.env.LAB_EXTRA_SERVICES = extraEnv.LAB_EXTRA_SERVICES;
  const { components, prometheus } = nativeLab(OFFSET, readManifests().filter((m) => only.includes(m.name)));
  if (saved === undefined) delete process.env.LAB_EXTRA_SERVICES;
  else process.env.LAB_EXTRA_SERVICES = saved;
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const p of marked(mark)) process.kill(p.pid, 'SIGKILL'); // never leave a failed case's processes around
    fs.rmSync(stateDir, { recursive: true, force: true });
    if (t.passed === false || process.env.LAB_TEST_VERBOSE) console.log(output);
  });
  return {
    child,
    mark,
    exited,
    components,
    ports: components.map((c) => c.port).concat(prometheus.port),
    urls: components.map((c) => `${c.url}/healthz`).concat(`http://127.0.0.1:${prometheus.port}/-/ready`),
    output: () => output,
  };
}

/** Every component answers, and native.js has seen each one up (from then on, a server that dies is restarted). */
async function allUp(lab) {
  await until('every component answers', UP_TIMEOUT_MS, async () => {
    if (lab.child.exitCode !== null) throw new Error(`native exited early:\n${lab.output()}`);
    const codes = await Promise.all(lab.urls.map((url) => fetch(url).then((r) => r.status, () => 0)));
    const unseen = lab.components.map((c) => c.name).concat('prometheus').filter((name) => !lab.output().includes(`native: ${name} is up\n`));
    return { done: codes.every((c) => c === 200) && unseen.length === 0, why: `${lab.urls.map((u, i) => `${u} ${codes[i]}`).join(', ')}; not seen up by native: ${unseen.join(', ')}` };
  });
}

/** The server process (node or java, under make) of one component of the lab, or undefined. */
function serverOf(lab, name) {
  const dir = fs.realpathSync(lab.components.find((c) => c.name === name).dir);
  return marked(lab.mark).find((p) => p.cwd === dir && ['node', 'java'].includes(path.basename(p.command[0])));
}

/** `restarts` of a service's /info: how many times `make native` has started it again. */
async function restartsOf(lab, name) {
  const { url } = lab.components.find((c) => c.name === name);
  return (await (await fetch(`${url}/info`)).json()).restarts;
}

/** The exit code, or 'still running' after EXIT_TIMEOUT_MS. */
async function exitCode(lab) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, EXIT_TIMEOUT_MS, { code: 'still running' })));
  const { code } = await Promise.race([lab.exited, late]);
  clearTimeout(timer);
  return code;
}

/**
 * A streamed run of node-async whose client stops reading: its graceful stop waits for it (up to its shutdown
 * timeout), long after a stop signal, so a stop that does not wait for the server would leave it behind.
 */
async function holdStreamedRun(t) {
  const [asyncManifest] = readManifests().filter((m) => m.name === 'node-async');
  const reader = net.connect(asyncManifest.port + OFFSET, '127.0.0.1');
  reader.on('error', () => {});
  t.after(() => reader.destroy());
  const started = new Promise((resolve) => reader.once('data', () => resolve(reader.pause())));
  reader.write('GET /run/stringify?approach=fast&size=20000&body=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await started;
}

async function exitsLeavingNothing(lab, expectedCode) {
  assert.strictEqual(await exitCode(lab), expectedCode, lab.output());
  // At once, no waiting: native.js must not exit before its processes are gone.
  assert.deepStrictEqual(marked(lab.mark), [], 'processes of the lab outlived `make native`');
  assert.deepStrictEqual(await portsInUse(lab.ports), [], 'ports of the lab still held');
}

test('make native leaves no process and no port behind, however it ends', { timeout: 1800000 }, async (t) => {
  await t.test('SIGINT while a server is still answering', async (st) => {
    const lab = startLab(st, ['node-async', 'jvm-serializer', 'load']);
    await allUp(lab);
    // Both implementations of the contract's /info count the restarts (node-kit's and the JVM's): none yet.
    assert.deepStrictEqual([await restartsOf(lab, 'node-async'), await restartsOf(lab, 'jvm-serializer')], [0, 0]);
    await holdStreamedRun(st);
    lab.child.kill('SIGINT');
    await exitsLeavingNothing(lab, 0);
  });

  await t.test('a second SIGINT (an impatient Ctrl-C) kills what is left, and still waits for it', async (st) => {
    // The held run outlasts any wait here: neither its shutdown timeout nor its stalled-client timeout ends it first.
    const lab = startLab(st, ['node-async'], { SHUTDOWN_TIMEOUT_MS: '600000', STALLED_CLIENT_TIMEOUT_MS: '600000' });
    await allUp(lab);
    await holdStreamedRun(st);
    lab.child.kill('SIGINT');
    await until('the first SIGINT taken', EXIT_TIMEOUT_MS, async () => ({ done: /native: SIGINT; stopping/.test(lab.output()) }));
    lab.child.kill('SIGINT');
    await exitsLeavingNothing(lab, 1);
    assert.match(lab.output(), /node-async still running .*: killed/);
  });

  await t.test('SIGHUP (the terminal closed)', async (st) => {
    const lab = startLab(st, ['node-async']);
    await allUp(lab);
    lab.child.kill('SIGHUP');
    await exitsLeavingNothing(lab, 0);
  });

  await t.test('SIGTERM once everything is up', async (st) => {
    const lab = startLab(st, ['node14-fibers', 'wasm-runner']);
    await allUp(lab);
    lab.child.kill('SIGTERM');
    await exitsLeavingNothing(lab, 0);
  });

  await t.test('a component that cannot start stops the others', async (st) => {
    const lab = startLab(st, ['node-async', 'crash-at-start'], { LAB_EXTRA_SERVICES: CRASHING });
    await exitsLeavingNothing(lab, 1);
    assert.match(lab.output(), /native: crash-at-start exited \(exit code 2\) before it was ever up; stopping/);
  });

  await t.test('a server that dies once it was up is started again, later each time; the others serve on', async (st) => {
    const lab = startLab(st, ['node-async', 'wasm-runner']);
    await allUp(lab);
    assert.strictEqual(await restartsOf(lab, 'wasm-runner'), 0);
    const steady = serverOf(lab, 'node-async');
    for (const restart of [1, 2]) {
      const server = serverOf(lab, 'wasm-runner');
      assert.ok(server, `no wasm-runner server among ${JSON.stringify(marked(lab.mark))}`);
      process.kill(server.pid, 'SIGKILL');
      await until(`wasm-runner's restart ${restart}`, UP_TIMEOUT_MS, async () => {
        if (lab.child.exitCode !== null) throw new Error(`native exited:\n${lab.output()}`);
        const restarts = await restartsOf(lab, 'wasm-runner');
        return { done: restarts === restart, why: `/info restarts ${restarts}` };
      });
    }
    // make reports its server's death as its own exit code 2; the delay doubled from the first restart to the second
    // (it starts over only after a minute up, far longer than the restarted server answered before it was killed).
    assert.match(lab.output(), /native: wasm-runner exited \(exit code 2\); restart 1 in 1 s\n/);
    assert.match(lab.output(), /native: wasm-runner exited \(exit code 2\); restart 2 in 2 s\n/);
    assert.strictEqual(serverOf(lab, 'node-async').pid, steady.pid, 'node-async was started again too');
    assert.strictEqual(await restartsOf(lab, 'node-async'), 0);
    await allUp(lab);
    lab.child.kill('SIGTERM');
    await exitsLeavingNothing(lab, 0);
  });

  await t.test('a stop while a dead server waits for its restart starts nothing more', async (st) => {
    const lab = startLab(st, ['node-async', 'wasm-runner']);
    await allUp(lab);
    // node-async's graceful stop now waits for the held run (its 8 s shutdown timeout), well past the restart's 1 s
    // delay: a restart that the stop did not cancel would start a wasm-runner the stop never saw, left behind.
    await holdStreamedRun(st);
    process.kill(serverOf(lab, 'wasm-runner').pid, 'SIGKILL');
    lab.child.kill('SIGTERM');
    await exitsLeavingNothing(lab, 0);
    assert.strictEqual((lab.output().match(/\[wasm-runner\] listening on/g) || []).length, 1, 'wasm-runner started again');
  });

  await t.test('a port already taken stops everything', async (st) => {
    const [asyncManifest] = readManifests().filter((m) => m.name === 'node-async');
    const holder = net.createServer();
    await new Promise((resolve) => holder.listen(asyncManifest.port + OFFSET, '127.0.0.1', resolve));
    st.after(() => holder.listening && holder.close());
    const lab = startLab(st, ['node-async', 'jvm-serializer']);
    assert.strictEqual(await exitCode(lab), 1, lab.output());
    assert.deepStrictEqual(marked(lab.mark), [], 'processes of the lab outlived `make native`');
    holder.close();
    assert.deepStrictEqual(await portsInUse(lab.ports), [], 'ports of the lab still held');
  });
});
