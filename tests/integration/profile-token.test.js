'use strict';
// `PROFILE=1 make native` as a new user runs it, with no LAB_PROFILE_TOKEN of their own: the lab's start
// (scripts/native.js, which make native and make try run) makes one and hands it to the load driver and the service
// alike, so the service has its POST /profile (401 to another token, not 404) and the driver's profile of a scenario is
// taken and kept (its .cpuprofile beside the result). The token goes to those processes alone: Prometheus has none,
// and it is in no file of the results, not in the lab's output, not in what the driver answers (GET /runs/latest,
// /live/state). Each process's token is read from its environment (/proc), found by a mark the lab's processes inherit.
// node-async and the driver only, with Prometheus, on ports apart from the other native tests' (port-offsets.js).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, readManifests } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { request, until, tempDir } = require('@lab/test-kit');

const { INTEGRATION_PORT_OFFSETS } = require('./port-offsets');
const OFFSET = INTEGRATION_PORT_OFFSETS['profile-token'];
const ONLY = ['node-async', 'load'];
// Bounds on a hung lab or run, not timings: a start under load can take a minute.
const UP_TIMEOUT_MS = 240000;
const RUN_TIMEOUT_MS = 120000;
const MARK_VARIABLE = 'LAB_TOKEN_TEST_MARK';
const TOKEN_VARIABLE = 'LAB_PROFILE_TOKEN';

/** Every process whose environment holds the mark: {pid, cwd, command, token (its LAB_PROFILE_TOKEN, or undefined)}. */
function marked(mark) {
  const found = [];
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (!environ.includes(`${MARK_VARIABLE}=${mark}`)) continue;
      const token = environ.find((e) => e.startsWith(`${TOKEN_VARIABLE}=`));
      found.push({
        pid: Number(entry),
        cwd: fs.readlinkSync(`/proc/${entry}/cwd`),
        command: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean),
        token: token === undefined ? undefined : token.slice(TOKEN_VARIABLE.length + 1),
      });
    } catch {
      // gone meanwhile, or a zombie: nothing left of it
    }
  }
  return found;
}

/** Every file under dir, recursively. */
function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('PROFILE=1 natively, no token set: the driver and the service share one the start made, and it shows nowhere', { timeout: 600000, skip: !fs.existsSync('/proc/self/environ') && 'no /proc to read the processes\' environments from' }, async (t) => {
  const manifests = readManifests().filter((m) => ONLY.includes(m.name));
  const { components, prometheus } = nativeLab(OFFSET, manifests);
  const byName = Object.fromEntries(components.map((c) => [c.name, c]));
  const mark = `${process.pid}-profile-token`;
  const stateDir = tempDir('lab-token-state-');
  const resultsDir = tempDir('lab-token-results-');
  const suitesDir = tempDir('lab-token-suites-');
  // Not a suite's "profile": true: PROFILE=1, as load/README.md tells a user.
  const scenario = { name: 'native', target: 'node-async', run: { workload: 'stringify', approach: 'native', params: { size: 2000 } }, connections: 1, durationSeconds: 2, maxRequests: 1000, expect: 'validated' };
  fs.writeFileSync(path.join(suitesDir, 'profiled.json'), JSON.stringify({ scenarios: [scenario] }));

  const env = Object.assign({}, process.env, { LAB_PORT_OFFSET: String(OFFSET), LAB_STATE_DIR: stateDir, LAB_RESULTS_DIR: resultsDir, LOAD_SUITES_DIR: suitesDir, LOAD_SUITE: 'none', LAB_ONLY: ONLY.join(','), PROFILE: '1', [MARK_VARIABLE]: mark });
  delete env[TOKEN_VARIABLE]; // a new user has none
  const lab = spawn(process.execPath, [path.join(ROOT, 'scripts', 'native.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  lab.stdout.on('data', (chunk) => (output += chunk));
  lab.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => lab.on('exit', (code, signal) => resolve({ code, signal })));
  t.after(async () => {
    if (lab.exitCode === null && lab.signalCode === null) lab.kill('SIGTERM');
    await exited;
    for (const p of marked(mark)) process.kill(p.pid, 'SIGKILL'); // a failed case's survivors, never left around
    for (const dir of [stateDir, resultsDir, suitesDir]) fs.rmSync(dir, { recursive: true, force: true });
    if (process.env.LAB_TEST_VERBOSE || t.passed === false) console.log(output);
  });

  const urls = components.map((c) => `${c.url}/healthz`).concat(`http://127.0.0.1:${prometheus.port}/-/ready`);
  await until('every component answers', UP_TIMEOUT_MS, async () => {
    if (lab.exitCode !== null) throw new Error(`native exited early:\n${output}`);
    const codes = await Promise.all(urls.map((url) => fetch(url).then((r) => r.status, () => 0)));
    return { done: codes.every((c) => c === 200), why: urls.map((u, i) => `${u} ${codes[i]}`).join(', ') };
  });

  // The server of each component (node under make, in the component's folder) and Prometheus, as the lab started them.
  const processes = marked(mark);
  const serverOf = (name) => processes.find((p) => p.cwd === fs.realpathSync(byName[name].dir) && path.basename(p.command[0]) === 'node');
  const servers = ONLY.map(serverOf);
  assert.ok(servers.every(Boolean), `no server process found for ${ONLY.filter((n, i) => !servers[i]).join(', ')}`);
  const [token] = servers.map((s) => s.token);
  assert.match(token || '', /^[0-9a-f]{64}$/, 'the start made a token of 256 random bits (its length only is said here)');
  assert.ok(servers.every((s) => s.token === token), 'the driver and the service hold the same token');
  const prometheusProcess = processes.find((p) => path.basename(p.command[0]) === 'prometheus');
  assert.ok(prometheusProcess && prometheusProcess.token === undefined, 'Prometheus, which profiles nothing, is not given it');

  const wrong = await request(`${byName['node-async'].url}/profile?seconds=1`, { method: 'POST', headers: { authorization: 'Bearer not-the-token' } });
  assert.strictEqual(wrong.status, 401, 'the service has a profile route, and refuses another token');

  const started = await request(`${byName.load.url}/runs?suite=profiled`, { method: 'POST' });
  assert.strictEqual(started.status, 202, started.text);
  const run = await until('the profiled suite ended', RUN_TIMEOUT_MS, async () => {
    const latest = (await request(`${byName.load.url}/runs/latest`)).json;
    return { done: !['waiting', 'running'].includes(latest.state), value: latest, why: latest.state };
  });
  assert.strictEqual(run.state, 'passed', JSON.stringify(run));
  const kept = JSON.parse(fs.readFileSync(path.join(run.resultsDir, '01-native.json'), 'utf8')).profile;
  assert.ok(kept && !kept.error && kept.samples > 0, `the driver's profile of the scenario: ${JSON.stringify(kept).slice(0, 300)}`);
  assert.ok(fs.existsSync(path.join(run.resultsDir, '01-native.cpuprofile')), 'the profile kept beside the result');

  const files = filesUnder(resultsDir);
  assert.ok(files.some((f) => f.endsWith('run.json')), files.join(', '));
  for (const file of files) assert.ok(!fs.readFileSync(file, 'latin1').includes(token), `${path.relative(resultsDir, file)} holds the token`);
  for (const page of ['/runs/latest', '/live/state']) assert.ok(!(await request(`${byName.load.url}${page}`)).text.includes(token), `the driver's ${page} shows the token`);

  lab.kill('SIGTERM');
  assert.strictEqual((await exited).code, 0, 'the lab stopped cleanly');
  assert.ok(!output.includes(token), "the lab's output, its components' included, shows the token");
});
