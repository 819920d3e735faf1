'use strict';
// Side-by-side timing of native JSON.stringify, fast-stringify's stringify() and its chunks() consumed, on the 20 MB
// records document and on other shapes. Each output is verified (sha256 equal to native's) before its numbers count.
// Per shape: 2 warm-ups, then 5 rounds that run the three approaches one after the other (so a noisy neighbour
// affects all three alike), medians reported. A 1 ms interval timer measures the longest event-loop gap of each run.
//
//   node --expose-gc js-serializers/bench/fast-stringify-bench.js [--json]
// --expose-gc is optional: with it, a full GC between runs keeps one run's garbage out of the next one's time.
// --json prints the raw results as JSON instead of the table; --shape <text> runs only the shapes whose name has it.
const crypto = require('crypto');
const { performance } = require('perf_hooks');
const { stringify, chunks } = require('../fast-stringify');
const { shapes } = require('../conformance/torture-corpus');
const { generate } = require('@lab/payloads');
const { textOption, interleavedRounds, timedFigures, summarizeRuns, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');

const WARMUPS = 2;
const ROUNDS = 5;
const YIELD_MS = 5;

const SHAPES = [
  { name: 'records 20 MB', make: () => generate({ document: 'records', seed: 1, size: 10000 }) },
  { name: 'records + toJSON/Date 4 MB', make: () => shapes.recordsWithToJSON(2000) },
  { name: 'wide object 100k keys', make: () => shapes.wideObject(100000, 6) },
  { name: 'deep tree 2000 levels', make: () => shapes.deepTree(1000, 500) },
  { name: 'number array 1M', make: () => shapes.numbers(1000000, 5) },
  { name: 'long string 16 MB', make: () => shapes.escapeHeavyString(16 * 1024 * 1024, 7) },
];

const sha256 = (text) => crypto.createHash('sha256').update(text === undefined ? '' : text).digest('hex');
/** Reads every chunk of chunks(value), counting them into stats.chunks beside the module's own stats. */
async function consumeChunks(value, stats) {
  let count = 0;
  let chars = 0;
  for await (const chunk of chunks(value, { yieldMs: YIELD_MS, stats })) {
    chars += chunk.length;
    count++;
  }
  stats.chunks = count;
  return chars;
}

async function hashChunks(value) {
  const hash = crypto.createHash('sha256');
  for await (const chunk of chunks(value, { yieldMs: YIELD_MS })) hash.update(chunk);
  return hash.digest('hex');
}

async function benchShape(shape) {
  const value = shape.make();
  const reference = JSON.stringify(value);
  const referenceHash = sha256(reference);
  const bytes = Buffer.byteLength(reference);
  const validated = sha256(await stringify(value, { yieldMs: YIELD_MS })) === referenceHash
    && (await hashChunks(value)) === referenceHash;
  const measure = {
    native: () => timedFigures(() => JSON.stringify(value)),
    fast: () => timedFigures((stats) => stringify(value, { yieldMs: YIELD_MS, stats })),
    chunks: () => timedFigures((stats) => consumeChunks(value, stats)),
  };
  process.stderr.write(`${shape.name}\n`);
  const runs = await interleavedRounds({ approaches: Object.keys(measure), warmups: WARMUPS, rounds: ROUNDS, run: (approach) => measure[approach]() });
  return { shape: shape.name, bytes, validated, native: summarizeRuns(runs.native), fast: summarizeRuns(runs.fast), chunks: summarizeRuns(runs.chunks) };
}

function table(results) {
  const header = ['shape', 'MB', 'native ms', 'fast ms', 'ratio', 'chunks ms', 'ratio', 'yields', 'max slice ms',
    'max gap ms (fast / chunks / native)', 'validated'];
  const f1 = (n) => n.toFixed(1);
  const rows = results.map((r) => [
    r.shape,
    (r.bytes / 1e6).toFixed(1),
    f1(r.native.ms),
    f1(r.fast.ms),
    (r.fast.ms / r.native.ms).toFixed(2),
    f1(r.chunks.ms),
    (r.chunks.ms / r.native.ms).toFixed(2),
    String(r.fast.yields),
    `${f1(r.fast.maxSliceMs)} / ${f1(r.chunks.maxSliceMs)}`,
    `${f1(r.fast.maxGapMs)} / ${f1(r.chunks.maxGapMs)} / ${f1(r.native.maxGapMs)}`,
    r.validated ? 'yes' : 'NO',
  ]);
  return markdownTable(header, rows, { right: header.slice(1) });
}

async function main() {
  const started = performance.now();
  const filter = textOption(process.argv.slice(2), '--shape', '');
  const results = [];
  for (const shape of SHAPES.filter((s) => s.name.includes(filter))) results.push(await benchShape(shape));
  const report = Object.assign(machine(), { yieldMs: YIELD_MS, warmups: WARMUPS, rounds: ROUNDS, totalSeconds: (performance.now() - started) / 1000, results });
  finish('fast-stringify', report, {
    failed: results.some((r) => !r.validated),
    printTable: () => {
      console.log(`${machineLine(report)}, yieldMs ${YIELD_MS}, median of ${ROUNDS} after ${WARMUPS} warm-ups`);
      console.log(table(results));
      console.log(`(max slice: stringify / chunks; ratio = fast / native; ${report.totalSeconds.toFixed(0)} s in all)`);
    },
  });
}

runBenchmark(main);
