'use strict';
// A real process with the agent attached, for the tests: a child Node (each line of childNodes()) started with
// `-r agent.js`, the agent on port 0 writing its port to a file in a temp folder of the child's own, removed with
// the child, and its token file (without LAB_PROFILE_TOKEN) to a folder in there too. HTTP by the http module (the tests set Host, which fetch does not allow).
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');

const AGENT = path.join(__dirname, '..', 'agent.js');
const FIXTURE = path.join(__dirname, 'fixtures', 'service.js');
const RUNTIMES = path.join(__dirname, '..', '..', '..', '.runtimes');

/**
 * The Node binaries the agent's children run on: AGENT_TEST_NODES (paths separated by spaces or colons, as make sets
 * it from mk/runtimes.mk's lines), else this Node and every Node 14 installed under .runtimes.
 */
function childNodes(env = process.env) {
  if (env.AGENT_TEST_NODES) return env.AGENT_TEST_NODES.split(/[\s:]+/).filter(Boolean);
  const node14s = fs.existsSync(RUNTIMES) ? fs.readdirSync(RUNTIMES).filter((d) => /^node-14\./.test(d)).map((d) => path.join(RUNTIMES, d, 'bin', 'node')) : [];
  return [process.execPath].concat(node14s.filter((file) => fs.existsSync(file)));
}

/** The version a Node binary reports ('14.21.3'). */
const nodeVersion = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');

/** An HTTP request: resolves to {status, headers, text, json()}. options: {method, headers, signal (an AbortSignal)}. */
function request(port, target, options = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method: options.method || 'GET', headers: options.headers || {}, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.signal) options.signal.addEventListener('abort', () => req.destroy(new Error('aborted')));
    req.end();
  });
}

/**
 * Starts node (a path) with the agent and script (default: the fixture service), env added to this process's minus
 * any LAB_ and NODE_OPTIONS of its own. Resolves once the script printed its first stdout line (parsed as JSON) to
 * {node, dir, tokenDir (LAB_AGENT_TOKEN_DIR unless env sets it), line, servicePort, agentPort() (the port file's, once
 * written), stderr(), waitForStderr(regexp), exited, service(path), agent(path, options), stop()}.
 */
async function startWithAgent(node, { env = {}, nodeArgs = [], script = FIXTURE, scriptArgs = [], portFile = true } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-agent-test-'));
  const clean = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('LAB_') && key !== 'NODE_OPTIONS') clean[key] = value;
  const file = path.join(dir, 'agent-port');
  const tokenDir = path.join(dir, 'tokens');
  const childEnv = Object.assign(clean, { LAB_AGENT_PORT: '0', LAB_AGENT_TOKEN_DIR: tokenDir }, portFile ? { LAB_AGENT_PORT_FILE: file } : {}, env);
  const child = spawn(node, nodeArgs.concat(['-r', AGENT, typeof script === 'function' ? script(dir) : script], scriptArgs), { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const stderrWaits = [];
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    for (const w of stderrWaits.slice()) {
      const match = w.regexp.exec(stderr);
      if (match) {
        stderrWaits.splice(stderrWaits.indexOf(w), 1);
        w.resolve(match);
      }
    }
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      exited.then(({ code }) => reject(new Error(`the child exited (${code}) before its first line; stderr: ${stderr}`)));
    });
    const waitForStderr = (regexp) => {
      const match = regexp.exec(stderr);
      if (match) return Promise.resolve(match);
      return new Promise((resolve, reject) => {
        stderrWaits.push({ regexp, resolve });
        exited.then(() => reject(new Error(`the child exited without writing ${regexp}; stderr: ${stderr}`)));
      });
    };
    // The agent writes its port file before its "metrics on" line: once the line is there, so is the file.
    const agentPort = async () => {
      await waitForStderr(/lab agent: metrics on /);
      return Number(fs.readFileSync(file, 'utf8'));
    };
    return {
      node,
      dir,
      tokenDir,
      line,
      servicePort: line.port,
      agentPort,
      stderr: () => stderr,
      waitForStderr,
      exited,
      portFileExists: () => fs.existsSync(file),
      service: async (target) => (await request(line.port, target)).json(),
      agent: async (target, options) => request(await agentPort(), target, options),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A Prometheus text's samples: [{name, labels: {}, value}]. */
function parseSamples(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = {};
    for (const pair of (match[2] || '').match(/[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"/g) || []) {
      const eq = pair.indexOf('=');
      labels[pair.slice(0, eq)] = JSON.parse(pair.slice(eq + 1));
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named name whose labels include labels (undefined if none). */
function sampleValue(samples, name, labels = {}) {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found ? found.value : undefined;
}

module.exports = { childNodes, nodeVersion, startWithAgent, request, parseSamples, sampleValue, AGENT };
