'use strict';
// The seed 000 table, for every approach of the Node services that serialize, side by side in one run: the stringify and parse
// workloads exactly as the services run them (the same workload objects, minus HTTP) on the 20 MB records document.
//
//   node js-serializers/bench/seed-table.js [--size N] [--rounds N] [--json]
//
// Each service's approaches run in a child on that service's Node line (node14-fibers on Node 14, node-async on
// Node 24: the runtimes of mk/runtimes.mk, located through RUNTIMES, NODE14_VERSION and NODE24_VERSION as `make`
// exports them). Per approach:
// - performance: 1 warm-up, then --rounds runs (default 5); median time and its ratio to the same service's native
//   median, median yields, the longest event-loop block of any run, and validation: every run's output hashed against
//   the reference. A run that does not validate makes the row FAILED and its time is not shown as a result.
// - interruption: one run with timeoutMs=50: whether the approach stopped, and when (overshoot past the 50 ms).
// - concurrent work: one run while a 5 ms interval timer does background work: ticks seen / ticks expected from
//   the run's length (the seed's "efficiency"). Native's run is one block, so it gets none until the end.
// Rounds run the approaches one after the other, so a noisy neighbour slows all of them alike.
const fs = require('fs');
const path = require('path');
const os = require('os');
const { execFile } = require('child_process');
const { performance } = require('perf_hooks');
const { option } = require('./command-line');
const { saveBenchResults } = require('./results-file');
const { readManifests, nodeServicesOf } = require('../../lab-topology/manifests');

const ROOT = path.join(__dirname, '..', '..');
/**
 * The services the table compares: every Node service (lab-topology's manifests) whose src/approaches.js has stringify
 * approaches, each on the Node line its Makefile runs it on (`NODE_BIN := $(NODE14_BIN)`, mk/node-component.mk).
 */
function serializationServices() {
  return nodeServicesOf(readManifests())
    .map((m) => ({ name: m.name, approaches: path.join(m.dir, 'src', 'approaches.js'), makefile: path.join(m.dir, 'Makefile') }))
    .filter((s) => fs.existsSync(s.approaches) && /stringify\s*:/.test(fs.readFileSync(s.approaches, 'utf8')))
    .map((s) => {
      const line = /^NODE_BIN := \$\(NODE(\d+)_BIN\)$/m.exec(fs.readFileSync(s.makefile, 'utf8'));
      if (!line) throw new Error(`${s.makefile} does not say which Node line runs ${s.name} (NODE_BIN := $(NODE<n>_BIN))`);
      return { name: s.name, nodeVersion: `NODE${line[1]}_VERSION`, approaches: path.relative(ROOT, s.approaches) };
    });
}
const WORKLOADS = ['stringify', 'parse'];
const INTERRUPT_AFTER_MS = 50;
const BACKGROUND_TICK_MS = 5;

// ---- the child: one service's approaches on its own Node line ----

async function child(approachesPath, size, rounds) {
  const { serializationWorkloads } = require('../serialization-service');
  const { approaches } = require(path.resolve(ROOT, approachesPath));
  const workloads = serializationWorkloads(approaches);
  const report = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const progress = (text) => process.stderr.write(`  ${text}\n`);
  for (const name of WORKLOADS) {
    const workload = workloads[name];
    const params = (extra) => Object.assign({ size, seed: 1, yieldMs: 5, timeoutMs: 0, body: 0 }, extra);
    const run = (approach, extra) => workload.run({ approach, params: params(extra) });
    const samples = Object.fromEntries(workload.approaches.map((a) => [a, []]));
    progress(`${name}: generating the input and its reference, then warm-up`);
    for (const approach of workload.approaches) await run(approach);
    for (let round = 0; round < rounds; round++) {
      progress(`${name}: round ${round + 1}/${rounds}`);
      for (const approach of workload.approaches) samples[approach].push(await run(approach));
    }
    for (const approach of workload.approaches) {
      progress(`${name} ${approach}: interruption and concurrent work`);
      const interruption = await run(approach, { timeoutMs: INTERRUPT_AFTER_MS });
      const background = await withBackgroundWork(() => run(approach));
      report({ workload: name, approach, runs: samples[approach], interruption, background });
    }
  }
}

async function withBackgroundWork(work) {
  let ticks = 0;
  const timer = setInterval(() => ticks++, BACKGROUND_TICK_MS);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  clearInterval(timer);
  return { ticks, expected: Math.floor(ms / BACKGROUND_TICK_MS), validated: result.validated };
}

// ---- the parent: a child per service, then the tables ----

function runChild(service, size, rounds) {
  const nodeVersion = process.env[service.nodeVersion];
  const runtimes = process.env.RUNTIMES || path.join(ROOT, '.runtimes');
  if (!nodeVersion) throw new Error(`${service.nodeVersion} is not set: run this through \`make bench-stringify\``);
  const node = path.join(runtimes, `node-${nodeVersion}`, 'bin', 'node');
  console.error(`${service.name} on Node ${nodeVersion}:`);
  return new Promise((resolve, reject) => {
    const proc = execFile(node, [__filename, '--child', service.approaches, String(size), String(rounds)], { cwd: ROOT, maxBuffer: 1 << 26 }, (err, stdout) => {
      if (err) return reject(new Error(`${service.name}: ${err.message}`));
      resolve({ service: service.name, node: nodeVersion, rows: stdout.trim().split('\n').map((line) => JSON.parse(line)) });
    });
    proc.stderr.pipe(process.stderr);
  });
}

const median = (list) => list.slice().sort((a, b) => a - b)[list.length >> 1];
const fixed = (n, digits) => (n === null || n === undefined ? '-' : n.toFixed(digits));

function summarize(row) {
  const validated = row.runs.every((r) => r.validated);
  const yields = row.runs.map((r) => r.yields);
  return {
    workload: row.workload,
    approach: row.approach,
    validated,
    ms: median(row.runs.map((r) => r.ms)),
    yields: yields.some((y) => y === null) ? null : median(yields),
    maxBlockMs: Math.max(...row.runs.map((r) => r.eventLoop.maxBlockMs)),
    bytes: row.runs[0].bytes,
    interrupted: row.interruption.interrupted,
    stoppedAtMs: row.interruption.ms,
    overshootMs: row.interruption.overshootMs,
    availability: row.background.expected > 0 ? row.background.ticks / row.background.expected : null,
    background: row.background,
  };
}

function timeoutCell(s) {
  if (s.interrupted) return `stopped at ${fixed(s.stoppedAtMs, 1)} (+${fixed(s.overshootMs, 1)})`;
  if (s.overshootMs !== null) return `ran on to ${fixed(s.stoppedAtMs, 1)} (+${fixed(s.overshootMs, 1)})`;
  return `done at ${fixed(s.stoppedAtMs, 1)}, in time`;
}

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function print(results, size, rounds) {
  console.log(`# Seed 000 table: records document, size ${size} (${(results[0].rows[0].runs[0].bytes / 1e6).toFixed(1)} MB), ${rounds} rounds after a warm-up`);
  console.log(`${os.cpus().length} × ${os.cpus()[0].model}, ${os.platform()} ${os.release()}`);
  for (const workload of WORKLOADS) {
    const rows = [];
    for (const result of results) {
      const summaries = result.rows.filter((r) => r.workload === workload).map(summarize);
      const native = summaries.find((s) => s.approach === 'native');
      for (const s of summaries) {
        rows.push([
          `${result.service} (Node ${result.node})`,
          s.approach,
          s.validated ? fixed(s.ms, 1) : 'FAILED',
          s.validated && native.validated ? `${(s.ms / native.ms).toFixed(2)}×` : '-',
          s.yields === null ? 'n/a' : s.yields,
          fixed(s.maxBlockMs, 1),
          s.validated ? 'yes' : 'NO',
          timeoutCell(s),
          s.availability === null ? '-' : `${(100 * s.availability).toFixed(1)}% (${s.background.ticks}/${s.background.expected})`,
        ]);
      }
    }
    console.log(`\n## ${workload}`);
    console.log(table(['service', 'approach', 'median ms', 'vs native', 'yields', 'max block ms', 'validated', `timeout ${INTERRUPT_AFTER_MS} ms`, 'background ticks'], rows));
  }
  console.log(`\nmax block: the longest event-loop block of any measured run. timeout: a run with timeoutMs=${INTERRUPT_AFTER_MS}, when it stopped`);
  console.log(`(ms from its start, + past the deadline). background ticks: a ${BACKGROUND_TICK_MS} ms interval timer during one run, ticks seen / expected.`);
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], Number(args[2]), Number(args[3]));
  const size = option(args, '--size', 10000);
  const rounds = option(args, '--rounds', 5);
  const results = [];
  for (const service of serializationServices()) results.push(await runChild(service, size, rounds));
  if (args.includes('--json')) console.log(JSON.stringify(results, null, 2));
  else print(results, size, rounds);
  console.error(`raw results: ${saveBenchResults('seed-000', { size, rounds, at: new Date().toISOString(), services: results })}`);
  const failed = results.some((r) => r.rows.some((row) => !row.runs.every((run) => run.validated)));
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exit(1);
});
