'use strict';
// Side-by-side timing of native JSON.parse and fast-parse's parse(), on the 20 MB records document and on other
// shapes. Each result is verified (sha256 of its JSON text equal to native's) before its numbers count; a wrong
// result prints FAILED and the exit code is 1. Per shape: 2 warm-ups, then 5 rounds that run the two approaches one
// after the other (so a noisy neighbour affects both alike), medians reported. A 1 ms interval timer measures the
// longest event-loop gap of each run.
//
//   node --expose-gc js-serializers/bench/fast-parse-bench.js [--json] [--shape <text>]
// --expose-gc is optional: with it, a full GC between runs keeps one run's garbage out of the next one's time.
// --json prints the raw results as JSON instead of the table; --shape <text> runs only the shapes whose name has it.
const crypto = require('crypto');
const { performance } = require('perf_hooks');
const { parse } = require('../fast-parse');
const { shapes } = require('../conformance/torture-corpus');
const { randomText, textOf } = require('../conformance/parse-corpus');
const { generate } = require('@lab/payloads');
const { textOption, interleavedRounds, timedFigures, summarizeRuns, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');

const WARMUPS = 2;
const ROUNDS = 5;
const YIELD_MS = 5;

const json = (value) => JSON.stringify(value);
// JSON.stringify's text, also past native's stack (the nested shape), for the verification.
const hashOf = (value) => sha256(textOf(value));
const SHAPES = [
  { name: 'records 20 MB', text: () => json(generate({ document: 'records', seed: 1, size: 10000 })) },
  { name: 'records pretty-printed 7 MB', text: () => JSON.stringify(generate({ document: 'records', seed: 2, size: 2500 }), null, 2) },
  { name: 'objects 8 MB', text: () => json(generate({ document: 'objects', seed: 3, size: 6000 })) },
  { name: 'wide object 100k keys', text: () => json(shapes.wideObject(100000, 6)) },
  { name: 'deep tree 2000 levels', text: () => json(shapes.deepTree(1000, 500)) },
  { name: 'nested arrays 10k levels', text: () => '['.repeat(10000) + ']'.repeat(10000) },
  { name: 'number array 1M', text: () => json(shapes.numbers(1000000, 5)) },
  { name: 'long string 16 MB', text: () => json(shapes.escapeHeavyString(16 * 1024 * 1024, 7)) },
  { name: 'random documents with whitespace', text: () => `[${Array.from({ length: 40 }, (_, i) => randomText(i + 1, 2000)).join(',')}]` },
];

const sha256 = (text) => crypto.createHash('sha256').update(text === undefined ? '' : text).digest('hex');
async function benchShape(shape) {
  const text = shape.text();
  const referenceHash = hashOf(JSON.parse(text));
  const validated = hashOf(await parse(text, { yieldMs: YIELD_MS })) === referenceHash;
  const measure = {
    native: () => timedFigures(() => JSON.parse(text)),
    fast: () => timedFigures((stats) => parse(text, { yieldMs: YIELD_MS, stats })),
  };
  process.stderr.write(`${shape.name}\n`);
  const runs = validated ? await interleavedRounds({ approaches: Object.keys(measure), warmups: WARMUPS, rounds: ROUNDS, run: (approach) => measure[approach]() }) : { native: [], fast: [] };
  return { shape: shape.name, chars: text.length, validated, native: summarizeRuns(runs.native), fast: summarizeRuns(runs.fast) };
}

function table(results) {
  const header = ['shape', 'M chars', 'native ms', 'fast ms', 'ratio', 'yields', 'native calls', 'max slice ms',
    'max gap ms (fast / native)', 'validated'];
  const f1 = (n) => n.toFixed(1);
  const rows = results.map((r) => (!r.validated
    ? [r.shape, (r.chars / 1e6).toFixed(1), '', '', '', '', '', '', '', 'FAILED']
    : [
      r.shape,
      (r.chars / 1e6).toFixed(1),
      f1(r.native.ms),
      f1(r.fast.ms),
      (r.fast.ms / r.native.ms).toFixed(2),
      String(r.fast.yields),
      String(r.fast.nativeCalls),
      f1(r.fast.maxSliceMs),
      `${f1(r.fast.maxGapMs)} / ${f1(r.native.maxGapMs)}`,
      'yes',
    ]));
  return markdownTable(header, rows, { right: header.slice(1) });
}

async function main() {
  const started = performance.now();
  const filter = textOption(process.argv.slice(2), '--shape', '');
  const results = [];
  for (const shape of SHAPES.filter((s) => s.name.includes(filter))) results.push(await benchShape(shape));
  const report = Object.assign(machine(), { yieldMs: YIELD_MS, warmups: WARMUPS, rounds: ROUNDS, totalSeconds: (performance.now() - started) / 1000, results });
  finish('fast-parse', report, {
    failed: results.some((r) => !r.validated),
    printTable: () => {
      console.log(`${machineLine(report)}, yieldMs ${YIELD_MS}, median of ${ROUNDS} after ${WARMUPS} warm-ups`);
      console.log(table(results));
      console.log(`(ratio = fast / native; ${report.totalSeconds.toFixed(0)} s in all)`);
    },
  });
}

runBenchmark(main);
