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
const os = require('os');
const { performance } = require('perf_hooks');
const { stringify, chunks } = require('../fast-stringify');
const { startGapMonitor } = require('../../node-kit/timer-gap');
const { shapes } = require('../conformance/torture-corpus');
const { generate } = require('../../payloads/js/index');
const { saveBenchResults } = require('./results-file');

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
const median = (list) => list.slice().sort((a, b) => a - b)[list.length >> 1];
const collectGarbage = () => typeof global.gc === 'function' && global.gc();

/** Runs `work` (sync or async) while a 1 ms timer records the longest gap between its ticks. */
async function timed(work) {
  collectGarbage();
  const stopMonitor = startGapMonitor();
  const started = performance.now();
  const output = await work();
  const ms = performance.now() - started;
  const maxGapMs = stopMonitor();
  return { ms, maxGapMs, output };
}

async function consumeChunks(value, stats) {
  let chars = 0;
  let count = 0;
  for await (const chunk of chunks(value, { yieldMs: YIELD_MS, stats })) {
    chars += chunk.length;
    count++;
  }
  return { chars, count };
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
  const runs = { native: [], fast: [], chunks: [] };
  for (let round = 0; round < WARMUPS + ROUNDS; round++) {
    const native = await timed(() => JSON.stringify(value));
    const fastStats = {};
    const fast = await timed(() => stringify(value, { yieldMs: YIELD_MS, stats: fastStats }));
    const chunkStats = {};
    const chunked = await timed(() => consumeChunks(value, chunkStats));
    if (round < WARMUPS) continue;
    runs.native.push({ ms: native.ms, maxGapMs: native.maxGapMs });
    runs.fast.push(Object.assign({ ms: fast.ms, maxGapMs: fast.maxGapMs }, fastStats));
    runs.chunks.push(Object.assign({ ms: chunked.ms, maxGapMs: chunked.maxGapMs, chunks: chunked.output.count }, chunkStats));
  }
  const summary = (list) => ({
    ms: median(list.map((r) => r.ms)),
    maxGapMs: Math.max(...list.map((r) => r.maxGapMs)),
    maxSliceMs: list[0].maxSliceMs === undefined ? undefined : Math.max(...list.map((r) => r.maxSliceMs)),
    yields: list[0].yields === undefined ? undefined : median(list.map((r) => r.yields)),
    spreadMs: [Math.min(...list.map((r) => r.ms)), Math.max(...list.map((r) => r.ms))],
  });
  return { shape: shape.name, bytes, validated, native: summary(runs.native), fast: summary(runs.fast), chunks: summary(runs.chunks) };
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
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

async function main() {
  const started = performance.now();
  const filter = process.argv.includes('--shape') ? process.argv[process.argv.indexOf('--shape') + 1] : '';
  const results = [];
  for (const shape of SHAPES.filter((s) => s.name.includes(filter))) results.push(await benchShape(shape));
  const report = {
    node: process.version,
    v8: process.versions.v8,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    gcBetweenRuns: typeof global.gc === 'function',
    yieldMs: YIELD_MS,
    warmups: WARMUPS,
    rounds: ROUNDS,
    at: new Date().toISOString(),
    totalSeconds: (performance.now() - started) / 1000,
    results,
  };
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    console.log(`Node ${report.node} (V8 ${report.v8}), ${report.cpus} CPUs, load average ${report.loadAverage.map((l) => l.toFixed(2)).join(' ')}, ` +
      `GC between runs: ${report.gcBetweenRuns ? 'yes' : 'no'}, yieldMs ${YIELD_MS}, median of ${ROUNDS} after ${WARMUPS} warm-ups`);
    console.log(table(results));
    console.log(`(max slice: stringify / chunks; ratio = fast / native; ${report.totalSeconds.toFixed(0)} s in all)`);
  }
  console.error(`raw results: ${saveBenchResults('fast-stringify', report)}`);
  if (results.some((r) => !r.validated)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
