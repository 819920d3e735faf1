'use strict';
// The worker approach against typed, side by side, on large documents: a generated 20 MB one (payloads' records, the
// lab's 20 MB document) and a real one (--file, default /work/scratch/next.json when it exists: npm's 21 MB `next`
// packument). Per document and op (roundtrip, count, create): the time of one op and the longest block of the main
// thread's event loop during it, measured as the service measures a run's (loop-kit's startLoopWatch: a 1 ms timer's
// longest gap and the delay histogram, and the block's own part, the time its thread waited for a CPU left out: what
// make try holds against its limit), typed's and worker's in interleaved rounds (1 warm-up, --rounds, default 5):
// median time, the median run's block and own block and the worst run's, worker's time over typed's, its yields.
// Every approach is validated before its times count: the value that came back serializes like native's
// JSON.stringify of the document and the C++ tree hashes like the tree yyjson builds of that text (the count: the
// node count); a wrong answer prints FAILED and exits 1. Raw results to results/bench/.
//
//   node --expose-gc services/wasm-runner/bench/worker-bench.js [--rounds N] [--file path] [--json]
const fs = require('fs');
const { generate } = require('@lab/payloads');
const { sha256 } = require('@lab/payloads/js/vectors');
const { option, textOption, interleavedRounds, median, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');
const { startLoopWatch } = require('@lab/loop-kit/event-loop');
const { loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES, SLICED_APPROACHES } = require('../lib/transfer/approaches');
const { countNodes } = require('../lib/transfer/nodes');

const DEFAULT_FILE = '/work/scratch/next.json';
const YIELD_MS = 5;
const OPS = ['roundtrip', 'count', 'create'];
const { typed } = APPROACHES;
const { worker } = SLICED_APPROACHES;

/** The documents: [{name, value, canonical}], the generated one first. */
function documents(file) {
  const list = [{ name: 'records 20 MB (generated)', value: generate({ document: 'records', seed: 1, size: 10000 }) }];
  if (file && fs.existsSync(file)) list.push({ name: `${file.split('/').pop()} (real)`, value: JSON.parse(fs.readFileSync(file, 'utf8')) });
  return list.map((d) => Object.assign(d, { canonical: JSON.stringify(d.value) }));
}

/** Per op, each approach's run(stats) -> {answer, treeHash}; the trees create copies are loaded first. */
async function opsOf(wasm, doc) {
  const mainTree = wasm.loadDocument(doc.canonical);
  const workerTree = await worker.loadDocument(wasm.documentMsgpack(mainTree));
  const withHash = (answer) => Object.assign(answer, { treeHash: wasm.treeHash() });
  return {
    roundtrip: {
      typed: () => withHash(typed.roundTrip(wasm, doc.value)),
      worker: (stats) => worker.roundTrip(doc.value, { yieldMs: YIELD_MS, stats, hashTree: true }),
    },
    count: {
      typed: () => withHash(typed.count(wasm, doc.value)),
      worker: (stats) => worker.count(doc.value, { yieldMs: YIELD_MS, stats, hashTree: true }),
    },
    create: {
      typed: () => withHash(typed.createDocument(wasm, mainTree)),
      worker: (stats) => worker.createDocument(workerTree, { yieldMs: YIELD_MS, stats, hashTree: true }),
    },
    release: async () => {
      wasm.dropDocument(mainTree);
      await worker.dropDocument(workerTree);
      wasm.releaseMemory();
    },
  };
}

/** One run of work(stats) on a collected heap, watched as the service watches a run: {ms, blockMs, ownBlockMs, yields}. */
async function watchedRun(work) {
  if (typeof global.gc === 'function') global.gc();
  const stats = {};
  const stop = startLoopWatch();
  const started = performance.now();
  await work(stats);
  const ms = performance.now() - started;
  const loop = stop();
  return { ms, blockMs: loop.maxBlockMs, ownBlockMs: loop.maxOwnBlockMs, yields: stats.yields || 0 };
}

/** The figures of an approach's runs: median time, the median and worst run's block and own block, median yields. */
function summarize(runs) {
  if (runs.length === 0 || runs.some((r) => r.error)) return null;
  const of = (field) => runs.map((r) => r[field]).filter((v) => typeof v === 'number');
  const worst = (field) => (of(field).length ? Math.max(...of(field)) : null);
  const mid = (field) => (of(field).length ? median(of(field)) : null);
  return { ms: median(of('ms')), blockMs: mid('blockMs'), worstBlockMs: worst('blockMs'), ownBlockMs: mid('ownBlockMs'), worstOwnBlockMs: worst('ownBlockMs'), yields: median(of('yields')), runs };
}

/** Why an answer is wrong, or null: the value's text (the count) and the C++ tree against the references. */
function problemOf(op, answer, reference) {
  if (op === 'count' ? answer.count !== reference.nodes : sha256(JSON.stringify(answer.value)) !== reference.hash) return `the answer differs from ${op === 'count' ? 'the node count' : "native's"}`;
  if (answer.treeHash !== reference.tree) return "the C++ tree's hash differs from yyjson's of the text";
  return null;
}

async function benchDocument(wasm, doc, rounds) {
  const id = wasm.loadDocument(doc.canonical);
  const reference = { hash: sha256(doc.canonical), nodes: countNodes(doc.value), tree: wasm.documentTreeHash(id) };
  wasm.dropDocument(id);
  const ops = await opsOf(wasm, doc);
  const rows = [];
  for (const op of OPS) {
    process.stderr.write(`${doc.name} ${op}\n`);
    const problems = {};
    for (const approach of ['typed', 'worker']) problems[approach] = problemOf(op, await ops[op][approach]({}), reference);
    const valid = !problems.typed && !problems.worker;
    const runs = valid ? await interleavedRounds({ approaches: ['typed', 'worker'], warmups: 1, rounds, run: (a) => watchedRun((stats) => ops[op][a](stats)) }) : { typed: [], worker: [] };
    rows.push({ document: doc.name, bytes: Buffer.byteLength(doc.canonical), nodes: reference.nodes, op, problems, validated: valid, typed: summarize(runs.typed), worker: summarize(runs.worker), loadavg: machine().loadAverage });
  }
  await ops.release();
  return rows;
}

function printTable({ results, machine: m }) {
  const f = (n) => (n === undefined || n === null ? '' : n.toFixed(1));
  console.log(machineLine(m));
  console.log(markdownTable(
    ['document', 'op', 'typed ms', 'worker ms', 'worker / typed', 'typed block ms', 'worker block ms (worst)', 'worker own block ms (worst)', 'worker yields', 'validated'],
    results.map((r) => (!r.validated || !r.typed || !r.worker ? [r.document, r.op, '', '', '', '', '', '', '', `FAILED: ${r.problems.typed || r.problems.worker || 'a run threw'}`] : [
      r.document, r.op, f(r.typed.ms), f(r.worker.ms), (r.worker.ms / r.typed.ms).toFixed(2), f(r.typed.blockMs),
      `${f(r.worker.blockMs)} (${f(r.worker.worstBlockMs)})`, `${f(r.worker.ownBlockMs)} (${f(r.worker.worstOwnBlockMs)})`, String(r.worker.yields), 'yes',
    ])),
  ));
}

runBenchmark(async () => {
  const args = process.argv.slice(2);
  const rounds = option(args, '--rounds', 5);
  const file = textOption(args, '--file', DEFAULT_FILE);
  const wasm = await loadWasmModule();
  const results = [];
  for (const doc of documents(file)) results.push(...(await benchDocument(wasm, doc, rounds)));
  const report = { benchmark: 'wasm-runner worker against typed', yieldMs: YIELD_MS, rounds, machine: machine(), results };
  finish('wasm-worker', report, { args, printTable, failed: results.some((r) => !r.validated || !r.typed || !r.worker) });
});
