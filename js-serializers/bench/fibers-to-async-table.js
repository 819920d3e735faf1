'use strict';
// The fibers-to-async table (docs/experiments/fibers-to-async.md), for every approach of the Node services that
// serialize, side by side in one run: the stringify and parse workloads exactly as the services run them (the same
// workload objects, minus HTTP) on the 20 MB records document.
//
//   node js-serializers/bench/fibers-to-async-table.js [--size N] [--rounds N] [--json]
//
// Each service's approaches run in a child on that service's Node line (node14-fibers on Node 14, node-async on
// Node 24: the runtimes of mk/runtimes.mk, located through RUNTIMES, NODE14_VERSION and NODE24_VERSION as `make`
// exports them). Per approach:
// - performance: 1 warm-up, then --rounds runs (default 5); median time and its ratio to the same service's native
//   median, median yields, each run's longest event-loop block (median and max of the runs), the collector's longest
//   pause during a run (median; bench/gc-pauses.js), and validation: every
//   run's output hashed against the reference. A run that does not validate makes the row FAILED and its time is not
//   shown as a result.
// - interruption: one run with timeoutMs=50: whether the approach stopped, and when (overshoot past the 50 ms).
// - a neighbour: one run beside a task due every millisecond (bench/lateness-probe.js), and how late its ticks ran:
//   p99 and max. That is what other work on the same loop waits, where the original's "efficiency" (ticks of a 5 ms
//   timer seen / expected) measured the slices' length: a loop that turns every 5 ms scores 100 % while each of its
//   neighbours waits up to 5 ms.
// Rounds run the approaches one after the other, so a noisy neighbour slows all of them alike.
const path = require('path');
const os = require('os');
const { option, median, markdownTable, saveBenchResults } = require('@lab/bench-kit');
const { startLatenessProbe, PERIOD_MS } = require('./lateness-probe');
const { startGcPauses } = require('./gc-pauses');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { serializationServices, runOnServiceNode, ROOT } = require('./serialization-services');
const { runRequest } = require('./run-request');

const WORKLOADS = ['stringify', 'parse'];
const INTERRUPT_AFTER_MS = 50;

// ---- the child: one service's approaches on its own Node line ----

async function child(approachesPath, size, rounds) {
  const { serializationWorkloads } = require('../serialization-service');
  const { approaches } = require(path.resolve(ROOT, approachesPath));
  const workloads = serializationWorkloads(approaches);
  const report = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const progress = (text) => process.stderr.write(`  ${text}\n`);
  for (const name of WORKLOADS) {
    const workload = workloads[name];
    const run = (approach, extra) => workload.run(runRequest(workload, approach, Object.assign({ size, seed: 1, yieldMs: 5 }, extra)));
    // A timed run, with the collector's longest pause during it (a pause is one step of V8's: a block of its own).
    const timedRun = async (approach) => {
      const stop = startGcPauses();
      const result = await run(approach);
      await nextTurn(); // Node hands the collector's entries to observers on a later turn
      return Object.assign(result, { gcLongestMs: stop().longestMs });
    };
    const samples = Object.fromEntries(workload.approaches.map((a) => [a, []]));
    progress(`${name}: generating the input and its reference, then warm-up`);
    for (const approach of workload.approaches) await run(approach);
    for (let round = 0; round < rounds; round++) {
      progress(`${name}: round ${round + 1}/${rounds}`);
      for (const approach of workload.approaches) samples[approach].push(await timedRun(approach));
    }
    for (const approach of workload.approaches) {
      progress(`${name} ${approach}: interruption, and a neighbour's lateness`);
      const interruption = await run(approach, { timeoutMs: INTERRUPT_AFTER_MS });
      const neighbour = await besideNeighbour(() => run(approach));
      report({ workload: name, approach, runs: samples[approach], interruption, neighbour });
    }
  }
}

/** One run beside the periodic task: {ticks, p99Ms, maxMs} of its lateness, and whether the run validated. */
async function besideNeighbour(work) {
  const stop = startLatenessProbe();
  const result = await work();
  return Object.assign(stop(), { validated: result.validated });
}

// ---- the parent: a child per service, then the tables ----

function runChild(service, size, rounds) {
  return runOnServiceNode(service, __filename, ['--child', service.approaches, String(size), String(rounds)]);
}

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
    medianBlockMs: median(row.runs.map((r) => r.eventLoop.maxBlockMs)),
    maxBlockMs: Math.max(...row.runs.map((r) => r.eventLoop.maxBlockMs)),
    gcLongestMs: median(row.runs.map((r) => r.gcLongestMs)),
    bytes: row.runs[0].bytes,
    interrupted: row.interruption.interrupted,
    stoppedAtMs: row.interruption.ms,
    overshootMs: row.interruption.overshootMs,
    neighbour: row.neighbour,
  };
}

function timeoutCell(s) {
  // No overshoot when it stopped within the deadline's own timer resolution (the time read a hair before it).
  if (s.interrupted) return `stopped at ${fixed(s.stoppedAtMs, 1)}${s.overshootMs === null ? '' : ` (+${fixed(s.overshootMs, 1)})`}`;
  if (s.overshootMs !== null) return `ran on to ${fixed(s.stoppedAtMs, 1)} (+${fixed(s.overshootMs, 1)})`;
  return `done at ${fixed(s.stoppedAtMs, 1)}, in time`;
}

function print(results, size, rounds) {
  console.log(`# fibers-to-async table: records document, size ${size} (${(results[0].rows[0].runs[0].bytes / 1e6).toFixed(1)} MB), ${rounds} rounds after a warm-up`);
  console.log(`${os.cpus().length} × ${os.cpus()[0].model}, ${os.platform()} ${os.release()}`);
  for (const result of results.filter((r) => r.nodeFlags.length > 0)) console.log(`${result.service} runs with ${result.nodeFlags.join(' ')}`);
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
          `${fixed(s.medianBlockMs, 1)} / ${fixed(s.maxBlockMs, 1)}`,
          fixed(s.gcLongestMs, 1),
          s.validated ? 'yes' : 'NO',
          timeoutCell(s),
          s.neighbour.validated ? `${fixed(s.neighbour.p99Ms, 1)} / ${fixed(s.neighbour.maxMs, 1)}` : 'FAILED',
        ]);
      }
    }
    console.log(`\n## ${workload}`);
    console.log(markdownTable(['service', 'approach', 'median ms', 'vs native', 'yields', 'block ms (median / max)', 'longest GC pause ms', 'validated', `timeout ${INTERRUPT_AFTER_MS} ms`, 'neighbour late p99 / max ms'], rows));
  }
  console.log(`\nblock: each run's longest event-loop block (the service's eventLoop.maxBlockMs), median and max of the runs. longest GC pause: the`);
  console.log('collector\'s longest pause during a run, median of the runs: a step of V8\'s, a block of its own, or part of one.');
  console.log(`timeout: a run with timeoutMs=${INTERRUPT_AFTER_MS}, when it stopped`);
  console.log(`(ms from its start, + past the deadline). neighbour: how late a task due every ${PERIOD_MS} ms ran during one run, p99 / max`);
  console.log('(an idle loop makes it up to about 1 ms late: that is the floor).');
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
  console.error(`raw results: ${saveBenchResults('fibers-to-async', { size, rounds, at: new Date().toISOString(), services: results })}`);
  const failed = results.some((r) => r.rows.some((row) => !row.runs.every((run) => run.validated) || !row.neighbour.validated));
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exit(1);
});
