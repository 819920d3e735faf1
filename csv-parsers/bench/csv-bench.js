'use strict';
// The async-char-streams table (docs/experiments/async-char-streams.md), measured: every approach in one process,
// through the csv workload exactly as the service runs it (minus HTTP), on the default document (50 002 rows, 5.4 MB,
// 64 KiB chunks).
//
//   node --expose-gc csv-parsers/bench/csv-bench.js [--rounds N] [--json]
//
// One warm-up run per approach, then --rounds rounds (default 5) that run the approaches one after the other, so a
// noisy neighbour slows all of them alike. Per approach: the median time, its ratio to memory's median, and the
// longest event-loop block of any run. Every run's rows are hashed against the generated rows: an approach with a
// run that does not validate (or throws) is FAILED, its time is not a result, and the script exits 1.
// The libraries come from services/node-async's node_modules (the versions that service pins). Progress goes to
// stderr; --json prints every run with the versions and the machine instead of the table.
const { createRequire } = require('module');
const { csvApproaches } = require('../approaches');
const { csvWorkload, PARAMS } = require('../csv-workload');
const { packageVersions } = require('@lab/node-kit');
const { option, interleavedRounds, median, machine, machineLine, markdownTable, finish, runBenchmark } = require('@lab/bench-kit');

const serviceRequire = createRequire(require.resolve('@lab/node-async/package.json'));
const LIBRARIES = { csvParse: 'csv-parse', iterTools: 'iter-tools-es' };

// The original's published results (node v17.7.1 on ARM): rows and ms.
const ORIGINAL = {
  memory: [50002, 35],
  'async-of-sync': [50002, 161],
  sync: [50002, 295],
  'sync-composed': [50003, 430],
  'transpiled-asyncish': [50002, 434],
  async: [50002, 1500],
  'transpiled-async': [50002, 1900],
  'async-composed': [50002, 2600],
};

const fixed = (n, digits) => (n === null || n === undefined ? '-' : n.toFixed(digits));

async function measure(rounds) {
  const versions = packageVersions(serviceRequire, Object.values(LIBRARIES));
  const libraries = Object.fromEntries(Object.entries(LIBRARIES).map(([key, name]) => [key, serviceRequire(name)]));
  const workload = csvWorkload(csvApproaches(libraries));
  const params = Object.fromEntries(Object.entries(PARAMS).map(([name, schema]) => [name, schema.default]));
  // Every run starts on a collected heap (with --expose-gc, as `make bench-csv` runs it): the previous run's 50 000
  // rows are garbage, and a major collection landing inside one run and not another would be most of the spread.
  const runs = await interleavedRounds({
    approaches: workload.approaches,
    rounds,
    run: (approach) => {
      if (global.gc) global.gc();
      return workload.run({ approach, params });
    },
  });
  return Object.assign(machine(), { libraries: versions, params, runs });
}

function summarize(results) {
  const rows = Object.entries(results.runs).map(([approach, runs]) => {
    const validated = runs.every((r) => r.validated);
    return {
      approach,
      validated,
      error: runs.map((r) => r.error).find((e) => e !== undefined),
      rows: runs[0].rows,
      bytes: runs[0].bytes,
      ms: validated ? median(runs.map((r) => r.ms)) : null,
      maxBlockMs: validated ? Math.max(...runs.map((r) => r.eventLoop.maxBlockMs)) : null,
    };
  });
  const memory = rows.find((r) => r.approach === 'memory');
  for (const row of rows) row.vsMemory = row.ms !== null && memory.ms !== null ? row.ms / memory.ms : null;
  return rows;
}

function print(results, summary, rounds) {
  const { chunkChars, rows } = results.params;
  const bytes = summary.find((s) => s.bytes).bytes;
  console.log(`# async-char-streams: CSV parsers, ${rows} rows, ${(bytes / 1e6).toFixed(2)} MB in chunks of ${chunkChars} chars; median of ${rounds} after a warm-up`);
  console.log(`${machineLine(results)}; ${Object.entries(results.libraries).map(([n, v]) => `${n} ${v}`).join(', ')}`);
  const originalMemory = ORIGINAL.memory[1];
  const lines = summary.map((s) => {
    const original = ORIGINAL[s.approach];
    return [
      s.approach,
      s.validated ? s.rows : 'FAILED',
      s.validated ? fixed(s.ms, 1) : s.error || 'wrong rows',
      s.vsMemory === null ? '-' : `${s.vsMemory.toFixed(2)}×`,
      fixed(s.maxBlockMs, 1),
      original ? original[0] : '-',
      original ? original[1] : '-',
      original ? `${(original[1] / originalMemory).toFixed(2)}×` : '-',
    ];
  });
  const headers = ['approach', 'rows', 'median ms', 'vs memory', 'max block ms', 'original rows', 'original ms', 'original vs memory'];
  console.log(markdownTable(headers, lines, { right: headers.slice(1) }));
  const byName = Object.fromEntries(summary.map((s) => [s.approach, s]));
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  if (byName.fast.ms !== null && byName.memory.ms !== null) {
    console.log(`\ntarget: fast within 2× of memory: ${byName.fast.vsMemory.toFixed(2)}×, ${verdict(byName.fast.vsMemory <= 2)}`);
  }
  if (byName['csv-parse'] && byName['csv-parse'].ms !== null && byName.fast.ms !== null) {
    const ratio = byName['csv-parse'].ms / byName.fast.ms;
    console.log(`target: fast faster than csv-parse: ${ratio.toFixed(2)}× faster, ${verdict(ratio > 1)}`);
  }
  console.log('\nmax block: the longest event-loop block of any measured run. original: the async-char-streams document\'s published results');
  console.log('(node v17.7.1 on ARM, its own test.csv), for reference only: a different machine, runtime and file.');
}

async function main() {
  const rounds = option(process.argv.slice(2), '--rounds', 5);
  const results = await measure(rounds);
  const summary = summarize(results);
  finish('async-char-streams-csv', Object.assign(results, { summary }), { printTable: () => print(results, summary, rounds), failed: summary.some((s) => !s.validated) });
}

runBenchmark(main);
