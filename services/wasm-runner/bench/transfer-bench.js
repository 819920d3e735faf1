'use strict';
// The wasm-transfer table (docs/experiments/wasm-transfer.md), measured: every approach of the transfer workload
// (embind, JSON via yyjson, MessagePack through @msgpack/msgpack and through msgpackr, and the lab's typed layout) on
// every spec transfer case, one op at a time, with the original's avg / median / min / p95 per case and approach, each
// approach's ratio to the fastest on the case, the bytes one op hands across the boundary each way, and the original's
// sample figures beside ours. Then the original's tree operations (create, count) on the tree cases.
//
//   node --expose-gc services/wasm-runner/bench/transfer-bench.js [--ops N] [--warmup N]
//
// Per (case, approach, op): one checked op first, then a warm-up of at least --warmup ops (default 30) and at least
// WARMUP_MS of them (the JS of typed and MessagePack needs thousands of small ops before V8 optimizes it, where JSON
// runs native code from the first), a collection, and --ops timed ops (default 300), each timed on its own. An op counts only if its answer is right: the value that came back hashes
// like the case's pinned vector (or its count equals the node count computed in JS) and the C++ tree hash equals the
// generator's; the first and the last timed op are checked. A wrong answer or a throw is FAILED, not a time, and the
// script exits 1. Raw results go to results/bench/; progress to stderr.
const os = require('os');
const path = require('path');
const { createRequire } = require('module');
const { loadWasmModule } = require('../lib/wasm-module');
const { APPROACHES } = require('../lib/transfer/approaches');
const { countNodes } = require('../lib/transfer/nodes');
const { summarize } = require('../lib/transfer/op-stats');
const { generate, TRANSFER_CASES } = require('@lab/payloads');
const { readVectors, sha256 } = require('@lab/payloads/js/vectors');
const { packageVersions } = require('@lab/node-kit');
const { option, markdownTable, saveBenchResults } = require('@lab/bench-kit');

const SEED_CASE = 1; // every transfer case is pinned in vectors.json at seed 1
const WARMUP_MS = 250;
const TREE_CASES = TRANSFER_CASES.filter((name) => name.startsWith('tree_'));
const LIBRARIES = ['@msgpack/msgpack', 'msgpackr'];

// The original's sample results (Node 20, Emscripten 3.1.6), avg ms: embind / JSON / MessagePack. Its tree figure is of
// its own create-and-count test, shown beside our round trip and tree operations alike.
const ORIGINAL = {
  flat_small: { embind: 0.01, json: 0.03, msgpack: 0.15 },
  flat_large: { embind: 0.01, json: 0.25, msgpack: 0.81 },
  numbers_1000: { embind: 0.21, json: 0.24, msgpack: 2.66 },
  objects_100: { embind: 0.16, json: 0.16, msgpack: 3.01 },
  tree_d4_b3: { embind: 0.29, json: 0.11, msgpack: 2.2 },
};

const vectors = new Map(readVectors().documents.filter((v) => v.document === 'transfer').map((v) => [v.case, v.sha256]));

/** The op as a function of nothing, and what its answer must be. */
function opUnderTest(wasm, approach, op, caseName) {
  const input = generate({ document: 'transfer', seed: SEED_CASE, case: caseName });
  const referenceTree = wasm.referenceTreeHash(caseName, SEED_CASE);
  const run = {
    roundtrip: () => APPROACHES[approach].roundTrip(wasm, input),
    count: () => APPROACHES[approach].count(wasm, input),
    create: () => APPROACHES[approach].create(wasm, caseName, SEED_CASE),
  }[op];
  const expectedCount = countNodes(input);
  // Called right after an op: nothing else has used the module since, so treeHash() is that op's tree.
  const check = (answer) => {
    const right = op === 'count' ? answer.count === expectedCount : sha256(JSON.stringify(answer.value)) === vectors.get(caseName);
    if (!right) return `the answer differs from the ${op === 'count' ? 'node count' : 'vector'}`;
    if (wasm.treeHash() !== referenceTree) return "the C++ tree's hash differs from the generator's";
    return null;
  };
  return { run, check };
}

function measure(wasm, approach, op, caseName, { ops, warmup }) {
  const row = { case: caseName, approach, op };
  try {
    const { run, check } = opUnderTest(wasm, approach, op, caseName);
    const first = run();
    row.problem = check(first);
    if (row.problem) return row;
    row.boundaryBytes = { in: first.inBytes, out: first.outBytes };
    const warmupEnd = performance.now() + WARMUP_MS;
    for (let i = 0; i < warmup || performance.now() < warmupEnd; i++) run();
    if (global.gc) global.gc();
    const times = new Float64Array(ops);
    let last = null;
    for (let i = 0; i < ops; i++) {
      const started = process.hrtime.bigint();
      last = run();
      times[i] = Number(process.hrtime.bigint() - started) / 1e6;
      if (i === 0 && (row.problem = check(last))) return row;
    }
    row.problem = check(last);
    if (!row.problem) row.stats = summarize(times, ops);
  } catch (error) {
    row.problem = `threw: ${error.message}`;
  }
  return row;
}

async function measureAll(settings) {
  const wasm = await loadWasmModule();
  const approaches = Object.keys(APPROACHES);
  const plan = [];
  for (const caseName of TRANSFER_CASES) for (const approach of approaches) plan.push([approach, 'roundtrip', caseName]);
  for (const op of ['create', 'count']) for (const caseName of TREE_CASES) for (const approach of approaches) plan.push([approach, op, caseName]);
  const rows = [];
  for (const [approach, op, caseName] of plan) {
    process.stderr.write(`\r${rows.length + 1}/${plan.length} ${op} ${caseName} ${approach}          `);
    rows.push(measure(wasm, approach, op, caseName, settings));
  }
  process.stderr.write('\n');
  return {
    node: process.versions.node,
    emscripten: wasm.emscriptenVersion,
    yyjson: wasm.yyjsonVersion,
    libraries: packageVersions(createRequire(path.join(__dirname, '..', 'package.json')), LIBRARIES),
    cpus: `${os.cpus().length} × ${os.cpus()[0].model}`,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
    settings,
    rows,
  };
}

const ms = (value) => (value === null || value === undefined ? '-' : value < 0.1 ? value.toFixed(4) : value.toFixed(3));
const bytes = (value) => (value === null || value === undefined ? '-' : String(value));

/** Each row's ratio of its median to the fastest median of its (case, op). */
function addRatios(rows) {
  const fastest = new Map();
  for (const row of rows) {
    if (!row.stats) continue;
    const key = `${row.op}/${row.case}`;
    fastest.set(key, Math.min(fastest.get(key) ?? Infinity, row.stats.medianMs));
  }
  for (const row of rows) if (row.stats) row.vsFastest = row.stats.medianMs / fastest.get(`${row.op}/${row.case}`);
}

function print(results) {
  const { rows } = results;
  console.log(`# wasm-transfer: data transfer between JS and C++/WASM, ${results.settings.ops} ops per row after a warm-up of ${results.settings.warmup} ops and ${WARMUP_MS} ms at least`);
  console.log(`Node ${results.node}, Emscripten ${results.emscripten}, yyjson ${results.yyjson}, ${Object.entries(results.libraries).map(([n, v]) => `${n} ${v}`).join(', ')}; ${results.cpus}, ${results.platform}`);
  for (const op of ['roundtrip', 'create', 'count']) {
    console.log(`\n## ${op}: ms per op; vs fastest by median; bytes one op hands in and out (embind: value by value, no buffer)`);
    const lines = rows.filter((r) => r.op === op).map((r) => {
      const original = ORIGINAL[r.case] && ORIGINAL[r.case][r.approach];
      if (!r.stats) return [r.case, r.approach, 'FAILED', r.problem, '', '', '', '', '', original === undefined ? '-' : original];
      return [r.case, r.approach, ms(r.stats.avgMs), ms(r.stats.medianMs), ms(r.stats.minMs), ms(r.stats.p95Ms),
        `${r.vsFastest.toFixed(2)}×`, bytes(r.boundaryBytes.in), bytes(r.boundaryBytes.out), original === undefined ? '-' : original];
    });
    console.log(markdownTable(['case', 'approach', 'avg', 'median', 'min', 'p95', 'vs fastest', 'in B', 'out B', 'original avg'], lines));
  }
  printTargets(rows);
}

function printTargets(rows) {
  const median = (caseName, approach) => {
    const row = rows.find((r) => r.op === 'roundtrip' && r.case === caseName && r.approach === approach);
    return row && row.stats ? row.stats.medianMs : null;
  };
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  const slowerThanTyped = rows.filter((r) => r.op === 'roundtrip' && r.approach === 'typed' && r.stats && r.vsFastest > 1);
  console.log('\n## Targets (round trips, medians of this run)');
  console.log(`typed the fastest approach on every case: ${verdict(slowerThanTyped.length === 0)}` +
    (slowerThanTyped.length ? ` (not on ${slowerThanTyped.map((r) => `${r.case} ${r.vsFastest.toFixed(2)}×`).join(', ')})` : ''));
  for (const [caseName, peer, wanted] of [['numbers_10000', 'embind', 10], ['numbers_10000', 'json', 10], ['objects_500', 'json', 2]]) {
    const ratio = median(caseName, peer) / median(caseName, 'typed');
    console.log(`${caseName}: typed ${ratio.toFixed(1)}× faster than ${peer} (target ${wanted}×): ${verdict(ratio >= wanted)}`);
  }
  console.log('\noriginal avg: the original\'s sample (Node 20, Emscripten 3.1.6; its tree figure is its own create-and-count test),');
  console.log('for reference only: a different machine, runtime and harness.');
}

async function main() {
  const args = process.argv.slice(2);
  const settings = { ops: option(args, '--ops', 300), warmup: option(args, '--warmup', 30) };
  const results = await measureAll(settings);
  addRatios(results.rows);
  print(results);
  console.log(`\nraw results: ${saveBenchResults('wasm-transfer', results)}`);
  if (results.rows.some((r) => !r.stats)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.stack || error.message);
  process.exit(1);
});
