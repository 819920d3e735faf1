'use strict';
// What a burst of connections leaves in wasm-runner's memory (docs/findings/wasm-runner.md, 2026-11-26): the
// service started as `make start` starts it (with NODE24_OPTIONS), then bursts of GET /healthz from 200 connections on
// loopback (keep-alive; or, with --new-connections, a new connection per request), and before the first burst and
// --idle seconds after each: the RSS split by /proc/<pid>/smaps, the JS heap and the WASM memory from /metrics. An
// answer other than 200 fails the run. Raw results go to results/bench/, a table to stdout. Linux only (/proc).
//   node bench/burst-memory.js [--bursts 3] [--requests 100000] [--idle 10] [--new-connections]
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { createRequire } = require('node:module');
const { samples } = require('@lab/test-kit');
const { option, saveBenchResults } = require('@lab/bench-kit');

const autocannon = createRequire(require.resolve('@lab/load/package.json'))('autocannon');
const CONNECTIONS = 200;
const MB = 1024 * 1024;
const ARENA_BYTES = 64 * MB; // glibc maps each thread arena at a multiple of its maximum size, 64 MB on 64-bit

/** The RSS of pid by what holds it, in MB: glibc's heaps (brk heap, thread arenas), other anonymous memory, files. */
function rssBySource(pid) {
  const mb = { glibcHeaps: 0, otherAnonymous: 0, files: 0 };
  let mapping = null;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1], 16);
      const size = parseInt(head[2], 16) - start;
      const arena = head[3] === '0' && head[4] === '' && start % ARENA_BYTES === 0 && size <= ARENA_BYTES;
      if (head[4] === '[heap]' || arena) mapping = 'glibcHeaps';
      else mapping = head[3] === '0' && !head[4].startsWith('/') ? 'otherAnonymous' : 'files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && mapping) mb[mapping] += Number(rss[1]) / 1024;
  }
  return mb;
}

/** GET url on a connection of its own, closed after: the body as text. */
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

async function snapshot(step, server) {
  const metrics = await get(`${server.url}/metrics`);
  const value = (name) => samples(metrics, name).reduce((sum, s) => sum + s.value, 0) / MB;
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) / 1024;
  return Object.assign({ step, rss }, rssBySource(server.pid), {
    heapTotal: value('nodejs_heap_size_total_bytes'),
    heapUsed: value('nodejs_heap_size_used_bytes'),
    wasmMemory: value('lab_wasm_heap_bytes'),
  });
}

/** `requests` GET /healthz from CONNECTIONS clients, each on a new connection; the count of answers other than 200. */
async function newConnectionBurst(port, requests) {
  let sent = 0;
  let failed = 0;
  const one = () => new Promise((resolve) => {
    let head = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.end('GET /healthz HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk) => (head += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(!head.startsWith('HTTP/1.1 200 ')));
  });
  const client = async () => {
    while (sent < requests) {
      sent += 1;
      if (await one()) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  return failed;
}

async function keepAliveBurst(url, requests) {
  const result = await autocannon({ url: `${url}/healthz`, connections: CONNECTIONS, amount: requests, timeout: 30 });
  return result.non2xx + result.errors + result.timeouts;
}

/** wasm-runner as `make start` runs it, on a free port: {url, pid (the server's, not make's), stop()}. */
async function startServer() {
  const make = spawn('make', ['-s', '-C', path.join(__dirname, '..'), 'start'], {
    env: Object.assign({}, process.env, { PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true, // its own process group: stop() reaches make's child, the server
  });
  const exited = new Promise((resolve) => make.on('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    let out = '';
    make.stdout.on('data', (chunk) => {
      out += chunk;
      const listening = /listening on [\d.]+:(\d+)/.exec(out);
      if (listening) resolve(Number(listening[1]));
    });
    make.on('exit', (code) => reject(new Error(`make start exited (${code}) before the server listened:\n${out}`)));
  });
  make.stdout.resume();
  const [pid] = fs.readFileSync(`/proc/${make.pid}/task/${make.pid}/children`, 'utf8').trim().split(' ').map(Number);
  const stop = () => {
    process.kill(-make.pid, 'SIGTERM');
    return exited;
  };
  return { url: `http://127.0.0.1:${port}`, pid, stop };
}

function print(results) {
  const mode = results.settings.newConnections ? 'a new connection per request' : 'keep-alive';
  console.log(`# wasm-runner's memory after bursts of ${results.settings.requests} GET /healthz from ${CONNECTIONS} connections (${mode}), ${results.settings.idleSeconds} s idle after each`);
  console.log(`Node ${results.node}, ${results.cpus}; MB`);
  console.log('| after | RSS | glibc heaps | other anonymous (V8 pages, WASM, stacks) | files | JS heap total | JS heap used | WASM memory |');
  console.log('|---|---|---|---|---|---|---|---|');
  const mb = (n) => n.toFixed(1);
  for (const s of results.snapshots) {
    console.log(`| ${s.step} | ${mb(s.rss)} | ${mb(s.glibcHeaps)} | ${mb(s.otherAnonymous)} | ${mb(s.files)} | ${mb(s.heapTotal)} | ${mb(s.heapUsed)} | ${mb(s.wasmMemory)} |`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const settings = {
    bursts: option(args, '--bursts', 3),
    requests: option(args, '--requests', 100000),
    idleSeconds: option(args, '--idle', 10),
    newConnections: args.includes('--new-connections'),
  };
  const server = await startServer();
  const snapshots = [];
  try {
    snapshots.push(await snapshot('start', server));
    for (let burst = 1; burst <= settings.bursts; burst++) {
      const port = Number(new URL(server.url).port);
      const failed = settings.newConnections ? await newConnectionBurst(port, settings.requests) : await keepAliveBurst(server.url, settings.requests);
      if (failed > 0) throw new Error(`burst ${burst}: ${failed} of ${settings.requests} requests not answered 200`);
      await new Promise((resolve) => setTimeout(resolve, settings.idleSeconds * 1000));
      snapshots.push(await snapshot(`burst ${burst}`, server));
    }
  } finally {
    await server.stop();
  }
  const results = { node: process.versions.node, cpus: `${os.cpus().length} × ${os.cpus()[0].model}`, time: new Date().toISOString(), settings, snapshots };
  print(results);
  console.error(`raw results: ${saveBenchResults('wasm-burst-memory', results)}`);
}

main().catch((err) => {
  console.error(err.message);
  process.exitCode = 1;
});
