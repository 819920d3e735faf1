'use strict';
// make test's check of what a run leaves behind (scripts/leftovers.js): each kind of leftover named, what was there
// before ignored, a temp folder a test made (and forgot) found in the run's own TMPDIR, a port found by its holder.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const net = require('node:net');
const { spawn } = require('node:child_process');
const { snapshot, leftovers, MARKER } = require('../leftovers');
const { tempDir } = require('@lab/test-kit');

const LISTENER = "const s = require('net').createServer().listen(0, '127.0.0.1', () => console.log(s.address().port));";
const empty = { tmp: [], docker: null, processes: [], ports: [] };

test('what is new after the run is named, kind by kind; what was there before is not', () => {
  const before = { tmp: ['old'], docker: { containers: ['theirs'], networks: ['bridge', 'host', 'none'], volumes: [], swarm: ['inactive'] }, processes: [], ports: ['3001'] };
  const after = {
    tmp: ['old', 'suites-x1'],
    docker: { containers: ['theirs', 'lab-smoke-load-1'], networks: ['bridge', 'host', 'none', 'lab-smoke_lab'], volumes: ['lab-soak_prometheus'], swarm: ['active', 'stack lab-swarm'] },
    processes: ['123 node'],
    ports: ['3001', '24002 (123 node)'],
  };
  assert.deepStrictEqual(leftovers(before, after), [
    'entry in the temp folder: suites-x1',
    'container: lab-smoke-load-1',
    'network: lab-smoke_lab',
    'volume: lab-soak_prometheus',
    'swarm state: active',
    'swarm state: stack lab-swarm',
    'process: 123 node',
    'listening port: 24002 (123 node)',
  ]);
  assert.deepStrictEqual(leftovers(before, before), []);
});

test('an engine started during the run counts as a fresh one: its default networks are not leftovers', () => {
  const after = Object.assign({}, empty, { docker: { containers: [], networks: ['bridge', 'host', 'none', 'docker_gwbridge'], volumes: [], swarm: ['inactive'] } });
  assert.deepStrictEqual(leftovers(empty, after), ['network: docker_gwbridge']);
});

test('a snapshot sees a folder left in the temp folder, and a process of the run still listening on a lab port', async (t) => {
  const tmpDir = tempDir('leftovers-');
  const runId = `leftovers-test-${process.pid}`;
  // A process of the run (it carries the marker) that stays listening, as a server a test forgot would.
  const child = spawn(process.execPath, ['-e', LISTENER], { env: Object.assign({}, process.env, { [MARKER]: runId }), stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  const port = Number(await new Promise((resolve) => child.stdout.once('data', resolve)));
  const where = { tmpDir, runId, ports: new Set([port]) };
  const before = { tmp: snapshot(where).tmp, docker: null, processes: [], ports: [] };
  fs.mkdirSync(`${tmpDir}/forgotten-1`);
  const left = leftovers(before, snapshot(where));
  assert.ok(left.includes('entry in the temp folder: forgotten-1'), left.join('; '));
  assert.ok(left.some((l) => l.startsWith(`process: ${child.pid} `)), left.join('; '));
  assert.ok(left.some((l) => l.startsWith(`listening port: ${port} (${child.pid} `)), left.join('; '));
});

test('a port someone else listens on is not the run\'s leftover', async (t) => {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const where = { tmpDir: tempDir('leftovers-'), runId: `nobody-${process.pid}`, ports: new Set([server.address().port]) };
  assert.deepStrictEqual(snapshot(where).ports, []);
});
