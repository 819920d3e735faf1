'use strict';
// The worker-offload experiment's tables (docs/experiments/worker-offload.md) from one run (`make bench-offload`):
// node-async started as its own process, one pool worker's rate measured alone, then the load suite worker-offload's
// scenarios (100 connections, 30 s, POST test-data.json) against the worker-pool route and the main-thread route, each
// with its /healthz probe and every answer checked.
// Prints the original's figures beside ours and the targets. A benchmark, not a test: it exits 1 only when an
// answer was wrong or the service failed, never for a missed target.
//   node bench/offload-bench.js [--duration 30] [--connections 100] [--worker-seconds 10]
const path = require('node:path');
const os = require('node:os');
const Piscina = require('piscina');
const { runScenario } = require('@lab/load/src/scenario/scenario');
const { loadSuite } = require('@lab/load/src/suite/suites');
const { samples } = require('@lab/test-kit');
const { referenceOf, hashOf } = require('../src/offload/process-data');
const { ROUTE } = require('../src/offload');
const { ORIGINAL } = require('./worker-offload-figures');
const { saveBenchResults } = require('@lab/bench-kit');
const { startService } = require('./start-service');

// duration and connections default to the worker-offload suite's (the original's profile).
const args = parseArgs(process.argv.slice(2), { duration: undefined, connections: undefined, 'worker-seconds': 10 });
const log = (message) => process.stderr.write(`${message}\n`);
const TARGET = { throughputShare: 0.9, lagP99Ms: 20 };

function parseArgs(argv, defaults) {
  const out = Object.assign({}, defaults);
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if (!(name in defaults) || !Number.isInteger(value) || value < 1) {
      throw new Error(`usage: offload-bench.js [--duration s] [--connections n] [--worker-seconds s] (got ${argv[i]} ${argv[i + 1]})`);
    }
    out[name] = value;
  }
  return out;
}

const getJson = async (url) => (await fetch(url)).json();

/** One pool worker alone, tasks back to back (after a warm-up): the rate the pool's workers can each sustain. */
async function oneWorkerRate(body, seconds) {
  const pool = new Piscina({ filename: path.join(__dirname, '..', 'src', 'offload', 'worker.js'), minThreads: 1, maxThreads: 1 });
  const expected = referenceOf(body).hash;
  const runFor = async (ms) => {
    let tasks = 0;
    const started = performance.now();
    while (performance.now() - started < ms) {
      const { result } = await pool.run({ request: body });
      if (hashOf(result) !== expected) throw new Error('a worker computed a wrong result');
      tasks++;
    }
    return tasks / ((performance.now() - started) / 1000);
  };
  await runFor(1000);
  const rate = await runFor(seconds * 1000);
  await pool.destroy();
  return rate;
}

const metricValue = (text, name) => (samples(text, name)[0] || { value: NaN }).value;

/** The service's main-thread event-loop lag since the previous scrape (prom-client resets it at every scrape). */
async function mainThreadLag(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return { p99Ms: metricValue(text, 'nodejs_eventloop_lag_p99_seconds') * 1000, maxMs: metricValue(text, 'nodejs_eventloop_lag_max_seconds') * 1000 };
}

/** Waits until the previous scenario's leftovers are done: nothing queued and /healthz answering promptly. */
async function settle(url) {
  for (;;) {
    const started = performance.now();
    const text = await (await fetch(`${url}/metrics`)).text();
    if (metricValue(text, 'lab_offload_queue_length') === 0 && performance.now() - started < 20) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The load suite worker-offload's scenario for a route, with the command line's duration and connections. */
function scenarioFor(url, route) {
  const { scenarios } = loadSuite('worker-offload', { 'node-async': url });
  const scenario = scenarios.find((s) => s.path === ROUTE[route]);
  return Object.assign({}, scenario, {
    durationSeconds: args.duration || scenario.durationSeconds,
    connections: args.connections || scenario.connections,
  });
}

async function loadRoute(url, route) {
  await settle(url);
  await mainThreadLag(url); // resets the lag histogram: the next scrape covers the scenario only
  const scenario = scenarioFor(url, route);
  log(`${route}: ${scenario.connections} connections for ${scenario.durationSeconds} s...`);
  const outcome = await runScenario(scenario, url);
  const lag = await mainThreadLag(url);
  return { outcome, lag };
}

const fmt = (value, digits = 0) => (value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
const bytes = (value) => (value >= 1000 ? `${fmt(value / 1000, 1)} kB` : `${fmt(value)} B`);

function column(run) {
  const r = run.outcome.result;
  return {
    latency: [r.latency.p2_5, r.latency.p50, r.latency.p97_5, r.latency.p99, r.latency.average, r.latency.stddev, r.latency.max].map((v) => `${fmt(v, 1)} ms`),
    requests: [r.requests.p1, r.requests.p2_5, r.requests.p50, r.requests.p97_5, r.requests.average, r.requests.stddev, r.requests.min].map((v) => fmt(v, 1)),
    bytesPerSecond: [r.throughput.p1, r.throughput.p2_5, r.throughput.p50, r.throughput.p97_5, r.throughput.average, r.throughput.stddev, r.throughput.min].map(bytes),
    total: `${r.requests.total} in ${fmt(r.duration, 2)} s`,
    errors: `${r.errors} (${r.timeouts} timeouts)`,
    rejected: `${r.non2xx} non-2xx, ${run.outcome.checks.invalid} not validated`,
    lag: `${fmt(run.lag.p99Ms, 1)} / ${fmt(run.lag.maxMs, 1)} ms`,
    probe: run.outcome.probe.latencyMs ? `${fmt(run.outcome.probe.latencyMs.p99)} / ${fmt(run.outcome.probe.latencyMs.max)} ms (${run.outcome.probe.requests} answered)` : 'none answered',
  };
}

function printTables(runs) {
  const cols = [ORIGINAL.unoptimized, column(runs.unoptimized), ORIGINAL.optimized, column(runs.optimized)];
  const header = ['', 'original unoptimized', 'lab unoptimized', 'original optimized', 'lab optimized'];
  const rows = [];
  const section = (title, labels, key) => labels.forEach((label, i) => rows.push([`${title} ${label}`].concat(cols.map((c) => (c[key] ? c[key][i] : 'n/a')))));
  section('latency', ['2.5%', '50%', '97.5%', '99%', 'avg', 'stdev', 'max'], 'latency');
  section('req/s', ['1%', '2.5%', '50%', '97.5%', 'avg', 'stdev', 'min'], 'requests');
  section('bytes/s', ['1%', '2.5%', '50%', '97.5%', 'avg', 'stdev', 'min'], 'bytesPerSecond');
  for (const [label, key] of [['total requests', 'total'], ['errors', 'errors'], ['refused / wrong', 'rejected'], ['main-thread lag p99 / max', 'lag'], ['/healthz probe p99 / max', 'probe']]) {
    rows.push([label].concat(cols.map((c) => c[key] || 'n/a')));
  }
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

function printTargets(runs, workers, workerRate) {
  const r = runs.optimized.outcome.result;
  const rate = r.requests.total / r.duration;
  const ideal = workers * workerRate;
  const slow = runs.unoptimized.outcome.result;
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  console.log(`\none worker alone: ${fmt(workerRate, 2)} req/s; ${workers} workers: ideal ${fmt(ideal, 1)} req/s`);
  console.log(`optimized throughput ${fmt(rate, 1)} req/s = ${fmt(rate / ideal, 3)} × ideal (target >= ${TARGET.throughputShare}): ${verdict(rate >= TARGET.throughputShare * ideal)}`);
  console.log(`optimized main-thread lag p99 ${fmt(runs.optimized.lag.p99Ms, 1)} ms (target <= ${TARGET.lagP99Ms}): ${verdict(runs.optimized.lag.p99Ms <= TARGET.lagP99Ms)}`);
  console.log(`optimized errors ${r.errors}, non-2xx ${r.non2xx} (target 0): ${verdict(r.errors === 0 && r.non2xx === 0)}`);
  console.log(`unoptimized: ${fmt(slow.requests.total / slow.duration, 1)} req/s, median latency ${fmt(slow.latency.p50)} ms, ` +
    `${fmt(slow.latency.p50 / r.latency.p50, 1)}× optimized's; main-thread lag p99 ${fmt(runs.unoptimized.lag.p99Ms, 1)} ms`);
}

async function main() {
  const server = await startService();
  try {
    const info = await getJson(`${server.url}/info`);
    const body = await getJson(`${server.url}/api/test-data`);
    const { workers } = info.offload;
    const profile = scenarioFor(server.url, 'optimized');
    console.log(`# worker-offload benchmark: node ${process.versions.node}, piscina ${info.libraries.piscina}, ${os.cpus().length} CPUs, ` +
      `${workers} workers, queue ${info.offload.maxQueue}; body: ${body.items.length} items at Fibonacci(${body.fibonacciN}); ` +
      `${profile.connections} connections, ${profile.durationSeconds} s per route; original figures from docs/experiments/worker-offload.md\n`);
    log(`one worker alone for ${args['worker-seconds']} s...`);
    const workerRate = await oneWorkerRate(body, args['worker-seconds']);
    const runs = {};
    for (const route of ['optimized', 'unoptimized']) runs[route] = await loadRoute(server.url, route);
    printTables(runs);
    printTargets(runs, workers, workerRate);
    const raw = { node: process.versions.node, libraries: info.libraries, cpus: os.cpus().length, at: new Date().toISOString(), offload: info.offload, body, workerRate, runs };
    console.error(`raw results: ${saveBenchResults('worker-offload', raw)}`);
    const wrong = Object.values(runs).reduce((n, run) => n + run.outcome.checks.invalid, 0);
    if (wrong > 0) {
      console.log(`\nFAILED: ${wrong} answers were not validated`);
      process.exitCode = 1;
    }
  } finally {
    server.stop();
  }
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exit(1);
});
