'use strict';
// `make attach` end to end (its native driver's POST /attach, which tells Prometheus of the agent through the targets
// folder make native gives it: the agent's series at every load say that it did) against a real service nobody here wrote: json-server 0.17.4 (pinned in
// attach-targets/json-server, installed from npm), whose GET /db answers the whole db.json through express' res.jsonp,
// that is JSON.stringify on the event loop. It runs with the lab's Node agent preloaded (NODE_OPTIONS --require, no
// change to json-server) on a side port of its own, on a generated db.json of some megabytes, and no LAB_PROFILE_TOKEN
// anywhere: make attach profiles with the token the agent wrote to its token file. The run must say what the
// issue asks of it, as properties, never timings: every load has the agent's lag and ELU series read through
// Prometheus, the verdict names the longest block and its heaviest stacks, and the stringify json-server's route runs
// is among them; report.html shows the same verdict in Chromium; the same endpoint without the agent still runs and
// names what it could not measure, and BEFORE= loads it again as that run did and compares; endpoints the lab must not
// or cannot load are refused before anything starts. Then WireMock standalone (pinned by agents/jvm-agent's pom, from
// Maven Central) serving a JSON stub of the same posts, with the Java agent (JAVA's -javaagent:, no change to WireMock):
// its verdict gives the GC pauses, the probe and the heaviest stacks of the JFR profiles, never an event loop. And
// nothing the runs started is left.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');
const { ROOT } = require('@lab/lab-topology/manifests');
const { nativeLab } = require('@lab/lab-topology/topology');
const { tempDir, freePort, until } = require('@lab/test-kit');
const { checkReportInBrowser, findChromium } = require('@lab/load/test/report-browser');
const { INTEGRATION_PORT_OFFSETS } = require('./port-offsets');
const { JSON_SERVER_DIR, JSON_SERVER_BIN, WIREMOCK, writeDb, writeStubs } = require('./attach-targets/targets');

const OFFSET = INTEGRATION_PORT_OFFSETS.attach;
const JSON_SERVER = path.join(JSON_SERVER_DIR, JSON_SERVER_BIN);
const AGENT = path.join(ROOT, 'agents', 'node-agent', 'agent.js');
const JVM_AGENT = path.join(ROOT, 'agents', 'jvm-agent', 'target', 'lab-agent.jar');
// A bound on a start (json-server reads db.json, the agent opens its port), never a timing.
const START_TIMEOUT_MS = 60000;

/** A service's process (command, args, in cwd, with env beside the test's): {output(), stop()}. */
function startService(command, args, cwd, env) {
  const child = spawn(command, args, { cwd, env: Object.assign({}, process.env, env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function makeAttach(env) {
  return new Promise((resolve) => {
    const child = spawn('make', ['-s', '--no-print-directory', 'attach'], { cwd: ROOT, env: Object.assign({}, process.env, { ATTACH_PORT_OFFSET: String(OFFSET) }, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Waits until the agent wrote its port (into portFile) and the service answers url; the agent's URL. */
async function serviceUp(service, portFile, url) {
  const agentPort = await until('the agent wrote its port', START_TIMEOUT_MS, async () => {
    const text = fs.existsSync(portFile) ? fs.readFileSync(portFile, 'utf8').trim() : '';
    return text ? { done: true, value: text } : { why: `no port in ${portFile}: ${service.output()}` };
  });
  await until(`the service answers ${url}`, START_TIMEOUT_MS, async () => ((await answers(url)) ? { done: true } : { why: service.output() }));
  return `http://127.0.0.1:${agentPort}`;
}

const answers = async (url) => {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
};

test('make attach on json-server with the Node agent: lag and ELU at every load, the longest block and its stacks, report.html', { timeout: 900000 }, async (t) => {
  const dir = tempDir('lab-attach-test-');
  const db = writeDb(dir);
  const port = await freePort();
  const portFile = path.join(dir, 'agent-port');
  // No LAB_PROFILE_TOKEN on either side: the agent writes its own token file into this folder, make attach reads it.
  const tokens = { LAB_PROFILE_TOKEN: '', LAB_AGENT_TOKEN_DIR: path.join(dir, 'tokens') };
  const service = startService(process.execPath, [JSON_SERVER, '--quiet', '--port', String(port), '--host', '127.0.0.1', db], dir, Object.assign({ NODE_OPTIONS: `--require ${AGENT}`, LAB_AGENT_PORT: '0', LAB_AGENT_PORT_FILE: portFile }, tokens));
  try {
    const url = `http://127.0.0.1:${port}/db`;
    const agentUrl = await serviceUp(service, portFile, url);
    const tokenFile = path.join(tokens.LAB_AGENT_TOKEN_DIR, `${new URL(agentUrl).port}.token`);
    const token = fs.readFileSync(tokenFile, 'utf8');

    const results = path.join(dir, 'results');
    const { code, output } = await makeAttach(Object.assign({ URL: url, AGENT: agentUrl, ATTACH_SECONDS: '2', LAB_RESULTS_DIR: results }, tokens));
    if (process.env.LAB_TEST_VERBOSE || code !== 0) console.log(output, service.output());
    assert.strictEqual(code, 0, output.slice(-3000));
    assert.match(output, /^attach: the lab's node agent answers at /m);
    assert.ok(output.includes(`attach: profiles with the token the agent wrote to ${tokenFile}`), output.slice(0, 3000));
    assert.ok(!output.includes(token) && !service.output().includes(token), 'the token is in no output');
    const report = /^attach: report: (.+)$/m.exec(output)[1];
    const run = JSON.parse(fs.readFileSync(path.join(path.dirname(report), 'run.json'), 'utf8'));
    const verdict = run.attachVerdict;
    assert.strictEqual(verdict.agent, 'node');
    assert.deepStrictEqual(verdict.missing, []);
    assert.strictEqual(run.targets.attached.runtime.name, 'node', 'the header names the runtime the agent found');
    // Every load, closed and open, has the agent's series, read through Prometheus as the target's job.
    assert.deepStrictEqual(verdict.loads.map((l) => l.loop), ['closed', 'closed', 'closed', 'open', 'open', 'open', 'open']);
    for (const load of verdict.loads) {
      assert.ok(load.passed, `${load.name}: ${load.problems}`);
      for (const field of ['lagP99Ms', 'lagMaxMs', 'elu', 'probeP99Ms']) assert.strictEqual(typeof load[field], 'number', `${load.name}: ${field} is ${load[field]}`);
      if (load.loop === 'open') assert.ok(load.arrivalRate >= 1 && load.arrivalFrom.requestsPerSecond > 0, JSON.stringify(load.arrivalFrom));
    }
    // The longest block is the worst second of the lag, and what ran in it names the stringify of json-server's route.
    const longest = verdict.loads.find((l) => l.name === verdict.longest.name);
    // The lag less the agent's loop-monitor interval (its /info says which): an idle loop reads about that much.
    assert.strictEqual(verdict.lagResolutionMs, run.targets.attached.agent.lagResolutionMs);
    assert.ok(verdict.lagResolutionMs > 0, 'the agent says its monitor interval');
    assert.strictEqual(verdict.longest.ms, Math.round((Math.max(...verdict.loads.map((l) => l.lagMaxMs)) - verdict.lagResolutionMs) * 1000) / 1000);
    assert.ok(longest.profileBlock && longest.profileBlock.samples > 0, JSON.stringify(longest.profileBlock));
    const frames = verdict.longest.stacks.flatMap((s) => s.stack);
    assert.ok(frames.some((f) => /^stringify /.test(f)) && frames.some((f) => /^jsonp /.test(f)), `no jsonp > stringify among the longest block's stacks: ${JSON.stringify(verdict.longest.stacks)}`);
    assert.ok(output.includes(verdict.lines[0]), 'make attach prints the verdict run.json keeps');
    const kept = fs.readdirSync(path.dirname(report));
    assert.strictEqual(kept.filter((f) => f.endsWith('.cpuprofile')).length, verdict.loads.length, kept.join(' '));
    for (const file of kept.map((f) => path.join(path.dirname(report), f)).filter((f) => fs.statSync(f).isFile())) {
      assert.ok(!fs.readFileSync(file, 'utf8').includes(token), `the token is kept in ${file}`);
    }

    await t.test('report.html shows the same verdict in Chromium', async (st) => {
      if (!findChromium()) {
        st.skip("no chromium executable: install Debian's chromium (scripts/install-system-packages.sh) or set CHROMIUM_PATH");
        return;
      }
      const found = await checkReportInBrowser(report);
      assert.strictEqual(found.attach.agent, 'node');
      assert.strictEqual(found.attach.loads.length, verdict.loads.length);
    });

    await t.test('without the agent, it runs and names what it could not measure; BEFORE loads as that run did and compares', async () => {
      // One-second loads: one sample a metric, which no test calls significant, so the comparison's verdict is fixed.
      const bare = await makeAttach({ URL: url, AGENT: 'none', ATTACH_SECONDS: '1', LAB_RESULTS_DIR: results, BEFORE: path.dirname(report) });
      assert.strictEqual(bare.code, 0, bare.output.slice(-3000));
      const runFile = path.join(path.dirname(/^attach: report: (.+)$/m.exec(bare.output)[1]), 'run.json');
      const bareVerdict = JSON.parse(fs.readFileSync(runFile, 'utf8')).attachVerdict;
      const openRates = (v) => v.loads.filter((l) => l.loop === 'open').map((l) => l.arrivalRate);
      assert.deepStrictEqual(openRates(bareVerdict), openRates(verdict), 'the open loops ran at the rates of BEFORE');
      assert.match(bare.output, /^attach: against BEFORE /m);
      assert.match(bare.output, /^ +server lag max ms +[\d.]+ +- +- +- +no data \(\d+\/0 samples\)$/m, 'the lag is compared where both runs have it: here only BEFORE');
      assert.strictEqual(bareVerdict.agent, null);
      assert.ok(bareVerdict.missing.includes('event-loop lag') && bareVerdict.missing.includes('CPU profiles'), bareVerdict.missing);
      assert.match(bare.output, /^not measured: event-loop lag, /m);
      assert.ok(bareVerdict.loads.every((l) => l.passed && l.lagMaxMs === null), JSON.stringify(bareVerdict.loads.map((l) => [l.name, l.passed, l.lagMaxMs])));
    });

    await t.test('endpoints it must not or cannot load are refused before anything starts (exit 2)', async () => {
      const refusals = [
        [{ URL: 'http://10.1.2.3:3000/db' }, /10\.1\.2\.3 is not this machine; .* ATTACH_ALLOW_REMOTE=1/],
        [{ URL: `http://127.0.0.1:${port}/no-such-route` }, /answered HTTP 404: the lab loads an endpoint that answers 2xx/],
        [{ URL: `http://127.0.0.1:${await freePort()}/db` }, /connection refused/],
        [{ URL: url, AGENT: `http://127.0.0.1:${await freePort()}` }, /AGENT: no lab agent answers at/],
        [{ URL: url, METHOD: 'TRACE' }, /METHOD must be one of/],
        [{ URL: 'ftp://127.0.0.1/db' }, /must be an http:\/\/ URL/],
        [{}, /give the endpoint to load/],
      ];
      for (const [env, message] of refusals) {
        const { code, output } = await makeAttach(Object.assign({ URL: '', AGENT: agentUrl }, env));
        assert.strictEqual(code, 2, `${JSON.stringify(env)}: ${output}`);
        assert.match(output, message);
        assert.doesNotMatch(output, /starting the load driver/);
      }
    });
  } finally {
    await service.stop();
  }

});

test('make attach on WireMock with the Java agent: GC pauses at every load, the heaviest stacks, no event loop to blame', { timeout: 900000 }, async () => {
  const dir = writeStubs(tempDir('lab-attach-jvm-test-'));
  const port = await freePort();
  const portFile = path.join(dir, 'agent-port');
  const token = crypto.randomBytes(16).toString('hex');
  const service = startService('java', [`-javaagent:${JVM_AGENT}`, '-jar', WIREMOCK, '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', dir, '--disable-banner', '--no-request-journal'], dir, { LAB_AGENT_PORT: '0', LAB_AGENT_PORT_FILE: portFile, LAB_PROFILE_TOKEN: token });
  try {
    const url = `http://127.0.0.1:${port}/posts`;
    const agentUrl = await serviceUp(service, portFile, url);
    const { code, output } = await makeAttach({ URL: url, AGENT: agentUrl, PROBE_PATH: '/__admin/health', LAB_PROFILE_TOKEN: token, ATTACH_SECONDS: '2', LAB_RESULTS_DIR: path.join(dir, 'results') });
    if (process.env.LAB_TEST_VERBOSE || code !== 0) console.log(output, service.output());
    assert.strictEqual(code, 0, output.slice(-3000));
    const report = /^attach: report: (.+)$/m.exec(output)[1];
    const run = JSON.parse(fs.readFileSync(path.join(path.dirname(report), 'run.json'), 'utf8'));
    const verdict = run.attachVerdict;
    assert.strictEqual(verdict.agent, 'jvm');
    assert.strictEqual(run.targets.attached.runtime.name, 'java');
    assert.strictEqual(verdict.blocksFrom, null, 'a JVM has no event loop to block');
    for (const load of verdict.loads) {
      assert.ok(load.passed, `${load.name}: ${load.problems}`);
      assert.strictEqual(typeof load.probeP99Ms, 'number', `${load.name}: the probe of /__admin/health ran`);
      assert.strictEqual(load.lagMaxMs, null, `${load.name}: no event-loop lag from a JVM`);
    }
    // The agent's GC pauses reached Prometheus as the target's job: some load saw the collector (a 1 MB body a request).
    assert.ok(verdict.loads.some((l) => typeof l.gcPauseMaxMs === 'number'), JSON.stringify(verdict.loads.map((l) => [l.name, l.gcPauseMaxMs])));
    // The heaviest stacks come from the JFR profile, WireMock's and its server's frames among them.
    assert.ok(verdict.heaviest && verdict.heaviest.stacks.length > 0, JSON.stringify(verdict.heaviest));
    const files = fs.readdirSync(path.dirname(report));
    assert.strictEqual(files.filter((f) => f.endsWith('.jfr')).length, verdict.loads.length, files.join(' '));
  } finally {
    await service.stop();
  }
});

test('nothing make attach started still answers', async () => {
  const { components, prometheus } = nativeLab(OFFSET);
  for (const url of components.map((c) => `${c.url}/healthz`).concat(`http://127.0.0.1:${prometheus.port}/-/ready`)) assert.strictEqual(await answers(url), false, url);
});
