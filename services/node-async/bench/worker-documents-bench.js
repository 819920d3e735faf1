'use strict';
// When does a worker thread help JSON? The `worker` approaches (src/documents/) beside native and `fast`, parse and
// stringify, on a generated ~1 MB and ~20 MB document (and --file, a user's own), interleaved rounds after warm-ups.
// Per approach: ms per op (the run's wall time), the main thread's CPU per op (what the run leaves the service's
// other requests: the copies for `worker`, everything for native) and its longest block (a 1 ms timer: the copy of the
// value across the threads, for `worker`), with the part of it the thread ran itself rather than waited for a CPU
// (own block, the figure a loaded machine cannot lengthen). Every approach's output is checked against native's hash
// before its figures count.
//   node --expose-gc bench/worker-documents-bench.js [--file doc.json] [--rounds 5] [--json]
const fs = require('node:fs');
const crypto = require('node:crypto');
const { generate } = require('@lab/payloads');
const fastParse = require('@lab/js-serializers/fast-parse');
const fastStringify = require('@lab/js-serializers/fast-stringify');
const { option, textOption, interleavedRounds, median, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');
const { startGapWindowMonitor } = require('@lab/loop-kit/timer-gap');
const { threadClock } = require('@lab/node-agent/thread-clock');
const { createDocumentPool, documentPoolSettings } = require('../src/documents/document-pool');
const { workerApproaches } = require('../src/documents/worker-approaches');

const YIELD_MS = 5;
const WARMUPS = 2;
const args = process.argv.slice(2);
const ROUNDS = option(args, '--rounds', 5);
const FILE = textOption(args, '--file', '');

const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
async function collect(chunks) {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

const DOCUMENTS = [
  { name: 'records ~1 MB', text: () => JSON.stringify(generate({ document: 'records', seed: 1, size: 500 })) },
  { name: 'records ~20 MB', text: () => JSON.stringify(generate({ document: 'records', seed: 1, size: 10000 })) },
].concat(FILE ? [{ name: FILE.split('/').pop(), text: () => fs.readFileSync(FILE, 'utf8') }] : []);

/** {workload: {approach: (input, stats) -> Promise<output text>}}: each run's output as text, for the check. */
function approachesOn(worker) {
  const options = (stats) => ({ yieldMs: YIELD_MS, stats });
  return {
    parse: {
      native: async (text) => JSON.parse(text),
      fast: (text, stats) => fastParse.parse(text, options(stats)),
      worker: (text, stats) => worker.parse(text, options(stats)),
      'worker-pieces': (text, stats) => worker.parsePieces(text, options(stats)),
    },
    stringify: {
      native: async (value) => JSON.stringify(value),
      fast: (value, stats) => collect(fastStringify.chunks(value, options(stats))),
      worker: (value, stats) => collect(worker.stringify(value, options(stats))),
    },
  };
}

const clock = threadClock();

/**
 * One approach's run on a collected heap: {ms, cpuMs (the main thread's), maxGapMs (a 1 ms timer's longest gap),
 * ownMs (the longest gap less its wait for a CPU: the main thread's own block, which a loaded machine cannot lengthen;
 * null without /proc/thread-self/schedstat)}. bench-kit's timedRun has no thread clock; the machine here is shared.
 */
async function measured(run, input) {
  if (typeof global.gc === 'function') global.gc();
  const stop = startGapWindowMonitor({ clock });
  const cpuBefore = threadCpuMs();
  const started = performance.now();
  await run(input, {});
  const ms = performance.now() - started;
  const cpuMs = threadCpuMs() - cpuBefore;
  const gap = stop();
  return { ms, cpuMs, maxGapMs: gap.ms, ownMs: gap.ownMs };
}

async function benchDocument(document, approaches) {
  const text = document.text();
  const value = JSON.parse(text);
  const reference = sha256(JSON.stringify(value));
  const results = [];
  for (const [workload, runs] of Object.entries(approaches)) {
    const input = workload === 'parse' ? text : value;
    const outputText = async (approach) => {
      const out = await runs[approach](input, {});
      return workload === 'parse' ? JSON.stringify(out) : out;
    };
    const validated = {};
    for (const approach of Object.keys(runs)) validated[approach] = sha256(await outputText(approach)) === reference;
    process.stderr.write(`${document.name}, ${workload}\n`);
    const timed = await interleavedRounds({ approaches: Object.keys(runs).filter((a) => validated[a]), warmups: WARMUPS, rounds: ROUNDS, run: (approach) => measured(runs[approach], input) });
    for (const approach of Object.keys(runs)) {
      const list = (timed[approach] || []).filter((r) => !r.error);
      results.push({
        document: document.name,
        mb: Buffer.byteLength(text) / 1e6,
        workload,
        approach,
        validated: validated[approach] && list.length === ROUNDS,
        ms: list.length ? median(list.map((r) => r.ms)) : null,
        // The mean: the kernel counts a thread's CPU at its scheduler ticks (1-4 ms), too coarse for one short run.
        cpuMs: list.length ? list.reduce((sum, r) => sum + r.cpuMs, 0) / list.length : null,
        maxBlockMs: list.length ? median(list.map((r) => r.maxGapMs)) : null,
        worstBlockMs: list.length ? Math.max(...list.map((r) => r.maxGapMs)) : null,
        ownBlockMs: list.length && list[0].ownMs !== null ? median(list.map((r) => r.ownMs)) : null,
        runs: timed[approach] || [],
      });
    }
  }
  return results;
}

function table(results) {
  const f = (n) => (n === null ? '' : n.toFixed(1));
  const of = (r, approach) => results.find((x) => x.document === r.document && x.workload === r.workload && x.approach === approach);
  const ratio = (a, b) => (a === null || !b || b.ms === null ? '' : (a / b.ms).toFixed(2));
  const header = ['document', 'MB', 'workload', 'approach', 'ms/op', 'vs native', 'vs fast', 'main-thread CPU ms/op (mean)', 'longest block ms (median, worst)', 'own block ms', 'validated'];
  const rows = results.map((r) => [r.document, r.mb.toFixed(1), r.workload, r.approach, f(r.ms), ratio(r.ms, of(r, 'native')), ratio(r.ms, of(r, 'fast')), f(r.cpuMs),
    r.maxBlockMs === null ? '' : `${f(r.maxBlockMs)} (${f(r.worstBlockMs)})`, f(r.ownBlockMs), r.validated ? 'yes' : 'FAILED']);
  return markdownTable(header, rows, { right: ['MB', 'ms/op', 'vs native', 'vs fast', 'main-thread CPU ms/op (mean)', 'longest block ms (median, worst)', 'own block ms'] });
}

async function main() {
  const started = performance.now();
  const pool = createDocumentPool(documentPoolSettings({ workers: 1, maxQueue: 0 }, {}));
  const approaches = approachesOn(workerApproaches(pool));
  const results = [];
  try {
    for (const document of DOCUMENTS) results.push(...(await benchDocument(document, approaches)));
  } finally {
    await pool.close();
  }
  const report = Object.assign(machine(), { loadAverageAfter: require('node:os').loadavg(), yieldMs: YIELD_MS, warmups: WARMUPS, rounds: ROUNDS, totalSeconds: (performance.now() - started) / 1000, results });
  finish('worker-documents', report, {
    failed: results.some((r) => !r.validated),
    printTable: () => {
      console.log(`${machineLine(report)}, yieldMs ${YIELD_MS}, median of ${ROUNDS} after ${WARMUPS} warm-ups, one worker thread`);
      console.log(table(results));
      console.log(`(load average after: ${report.loadAverageAfter.map((l) => l.toFixed(2)).join(' ')}; ${report.totalSeconds.toFixed(0)} s in all)`);
    },
  });
}

runBenchmark(main);
