'use strict';
// `fast` in a heap of its own, and in one it shares with the service's other approaches: where its blocks over 10 ms
// come from. In fibers-to-async-table.js's rounds every approach of a service runs in one process, as in the service,
// and Node 14's `fast` stringify blocked 11-29 ms in some rounds, 6-7 ms in the others. Each round here is one run of
// `fast` on the 20 MB records document, the workload exactly as the service runs it, in one of three modes:
// - alone: only `fast` runs in the process, round after round;
// - after the others: every other approach of the service runs once (untimed) before each run of `fast`, leaving
//   their garbage (whole 20 MB texts and their parts) in the heap it then works in; when a full collection comes
//   is up to V8, so some rounds meet one and some do not;
// - after the others and a full collection: the same, then gc() just before the run (the heap it frees is
//   reported): the rounds all start right after the collection that the rounds above meet now and then.
// Per mode: each run's longest block (the service's eventLoop.maxBlockMs), how many passed 10 ms, and how many of
// those had a full collection (mark-compact) inside the run. Every run's output is validated.
//
//   node js-serializers/bench/after-collection.js [--size N] [--rounds N] [--workload stringify|parse]
//
// Each service runs in a child on its own Node line with its options and --expose-gc (bench/serialization-services.js),
// as in fibers-to-async-table.js; raw results under results/bench/.
const os = require('os');
const path = require('path');
const { option, median, saveBenchResults } = require('@lab/bench-kit');
const { startGcPauses } = require('./gc-pauses');
const { nextTurn } = require('@lab/loop-kit/event-loop');
const { serializationServices, runOnServiceNode, ROOT } = require('./serialization-services');
const { runRequest } = require('./run-request');

const BLOCK_BOUND_MS = 10;
const MODES = ['alone', 'after the others', 'after the others and a full collection'];

// ---- the child: one service's approaches on its own Node line ----

async function child(approachesPath, size, rounds, workloadName) {
  const { serializationWorkloads } = require('../serialization-service');
  const { approaches } = require(path.resolve(ROOT, approachesPath));
  const workload = serializationWorkloads(approaches)[workloadName];
  const run = (approach) => workload.run(runRequest(workload, approach, { size, seed: 1, yieldMs: 5 }));
  const timedFast = async (collectFirst) => {
    let freedMb = null;
    if (collectFirst) {
      const before = process.memoryUsage().heapUsed;
      global.gc();
      freedMb = (before - process.memoryUsage().heapUsed) / 1e6;
    }
    const stop = startGcPauses();
    const result = await run('fast');
    await nextTurn(); // Node hands the collector's entries to observers on a later turn
    const gc = stop();
    return { ms: result.ms, maxBlockMs: result.eventLoop.maxBlockMs, validated: result.validated, markCompactMs: gc.longestByKind['mark-compact'] || 0, freedMb };
  };
  const others = workload.approaches.filter((a) => a !== 'fast');
  const progress = (text) => process.stderr.write(`  ${text}\n`);
  progress(`${workloadName}: generating the input and its reference, then a warm-up of fast`);
  await run('fast');
  const runs = Object.fromEntries(MODES.map((mode) => [mode, []]));
  for (const mode of MODES) {
    progress(`${workloadName}: ${mode}${mode === 'alone' ? '' : ` (${others.join(', ')} before each run)`}`);
    for (let round = 0; round < rounds; round++) {
      if (mode !== 'alone') for (const approach of others) await run(approach);
      runs[mode].push(await timedFast(mode === MODES[2]));
    }
  }
  for (const mode of MODES) process.stdout.write(`${JSON.stringify({ mode, others: mode === 'alone' ? [] : others, runs: runs[mode] })}\n`);
}

// ---- the parent: a child per service, then the table ----


function summarize(row) {
  const blocks = row.runs.map((r) => r.maxBlockMs);
  const over = row.runs.filter((r) => r.maxBlockMs > BLOCK_BOUND_MS);
  return {
    mode: row.mode,
    validated: row.runs.every((r) => r.validated),
    ms: median(row.runs.map((r) => r.ms)),
    medianBlockMs: median(blocks),
    maxBlockMs: Math.max(...blocks),
    over: over.length,
    overWithMarkCompact: over.filter((r) => r.markCompactMs > 0).length,
    markCompactMs: over.map((r) => r.markCompactMs).filter((ms) => ms > 0),
    freedMb: row.runs[0].freedMb === null ? null : median(row.runs.map((r) => r.freedMb)),
  };
}

function print(results, { size, rounds, workload }) {
  console.log(`# fast ${workload} alone and after the service's other approaches: records document, size ${size}, ${rounds} rounds each`);
  console.log(`${os.cpus().length} × ${os.cpus()[0].model}, ${os.platform()} ${os.release()}`);
  console.log(`| service | mode | median ms | block ms (median / max) | runs over ${BLOCK_BOUND_MS} ms | of them with a mark-compact inside (its ms) | heap freed just before, MB | validated |`);
  console.log('|---|---|---|---|---|---|---|---|');
  for (const result of results) {
    for (const s of result.rows.map(summarize)) {
      const pauses = s.markCompactMs.length ? ` (${s.markCompactMs.map((ms) => ms.toFixed(1)).join(', ')})` : '';
      console.log(`| ${result.service} (Node ${result.node}) | ${s.mode} | ${s.ms.toFixed(1)} | ${s.medianBlockMs.toFixed(1)} / ${s.maxBlockMs.toFixed(1)} | ${s.over} of ${rounds} | ${s.overWithMarkCompact}${pauses} | ${s.freedMb === null ? '' : s.freedMb.toFixed(0)} | ${s.validated ? 'yes' : 'NO'} |`);
    }
  }
  const others = results.map((r) => `${r.service}: ${r.rows.find((row) => row.others.length).others.join(', ')}`).join('; ');
  console.log(`\nafter the others: before each run of fast, one run of each other approach (${others}); and a full collection: then gc(),`);
  console.log('freeing the heap shown (median), just before the run.');
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], Number(args[2]), Number(args[3]), args[4]);
  const size = option(args, '--size', 10000);
  const rounds = option(args, '--rounds', 12);
  const at = args.indexOf('--workload');
  const workload = at < 0 ? 'stringify' : args[at + 1];
  if (!['stringify', 'parse'].includes(workload)) throw new Error('--workload must be stringify or parse');
  const results = [];
  for (const service of serializationServices()) {
    results.push(await runOnServiceNode(service, __filename, ['--child', service.approaches, String(size), String(rounds), workload], ['--expose-gc']));
  }
  print(results, { size, rounds, workload });
  console.error(`raw results: ${saveBenchResults('after-collection', { size, rounds, workload, at: new Date().toISOString(), services: results })}`);
  if (results.some((r) => r.rows.some((row) => !row.runs.every((run) => run.validated)))) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exit(1);
});
