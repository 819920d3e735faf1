'use strict';
// Issue "fast stringify and parse on every shape: within 1.5x of native and no long block", measured: every shape of
// bench/shapes.js, every member of the generated tree families the work-count guard sweeps (bench/tree-families.js:
// trees of objects and of arrays, small and large leaves, branching 2 to 600, two depths each) and every document of
// the real-world corpus (bench/real-documents.js, installed by `make bench-shapes`), or the user's own JSON file,
// through every approach of bench/shape-approaches.js (native, each function of fast, the peer libraries of
// bench/peers), side by side in one run of this script (issue 34, item 4).
//
//   node js-serializers/bench/shapes-bench.js [options]   (USAGE below; --help prints it)
//
// Which documents: all three sets when none of --shape, --family and --corpus is given; otherwise only the sets named,
// each filtered by its text: --shape the shapes whose name contains it, --family the tree family members whose name
// does ("objects, small leaves" is a family, "branching 600" a branching in every family), --corpus the corpus
// documents whose name or group does ("" for all of them). --file (or the environment's FILE) measures that JSON file
// alone (stringify: its parsed value; parse: its text as is). --scale shrinks every shape and every tree family
// member (0.02 for a quick look; 1, the default, is 10-40 MB a shape, 1-5 MB a family's deeper member); --warm-ms
// (default 100) is how long each process first calls its approach back to back, untimed (at most 3000
// calls: bench/shape-run.js), so that the JavaScript approaches are timed in the optimized code a service runs after
// its first requests, as native's C++ always is; --rounds (default 3) and --warmups (default 1) count the timed runs of
// each approach in one process, --passes (default 3) how many processes of each approach run, taking turns with the
// other approaches' (pass 1 of every approach on a shape, then pass 2...): a time is the median of all their rounds,
// so that neither one process's luck (where its heap and code landed) nor a few seconds of a noisy machine decide a
// ratio, and the table shows the spread of the passes' medians. A round of a document under 1 MB is a run of calls
// back to back lasting about 2 ms of native's time (bench/repeated-calls.js), its block the figures of a lone call
// before it, and its ratio the median of the rounds' ratios to its reference's run timed beside it in the same process
// (bench/shape-run.js: the same call in two processes differed by up to 2x). fast's pipeTo() is compared with native's
// text written to the same sink (native.write, its comparedWith), the others with native. --workload runs one workload
// only; --json prints the raw report instead of the tables.
//
// --heap steady (the default) runs the rounds of a process back to back; --heap cold forces a full collection before
// each round (bench/heap-protocols.js: what each one favours).
//
// Each child starts with the options of the lab's Node 24 services (NODE24_OPTIONS, which `make bench-shapes` passes:
// their young generation's size sets how long the collector's pauses are); without it, with V8's defaults. The report
// records which.
//
// Each pass of each (shape, approach) runs in a child process of its own (bench/shape-run.js, with --expose-gc), so
// that one library's garbage and JIT state cannot bias another's. The child rebuilds the
// document, takes native's output as the reference, and verifies every run's output before its time counts. Raw
// results go to results/bench/shapes-<time>.json; the tables and the verdict on the targets for the shapes (or the
// file), and one summary line per family, the shapes and each corpus group among them (bench/shapes-table.js, with
// bench/family-summary.js: the worst ratio to native of each approach and its worst block), are printed from that same
// report. Exit code 1 when native or fast failed a verification (a peer's failure is a
// finding about the peer, printed as FAIL) or the family was not deterministic. Node 14 syntax (the lint's rule for
// js-serializers/), although it measures on Node 24.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { performance } = require('perf_hooks');
const { option, median, saveBenchResults } = require('@lab/bench-kit');
const { shapesMatching } = require('./shapes');
const { membersMatching } = require('./tree-families');
const { documentsMatching } = require('./real-documents');
const { APPROACHES, checkPeersInstalled, peerRequire, PEERS } = require('./shape-approaches');
const { render } = require('./shapes-table');
const { packageVersions } = require('@lab/node-kit');
const { cpuLayout } = require('@lab/node-kit/cpus');
const { heapProtocol } = require('./heap-protocols');

const RUN_SCRIPT = path.join(__dirname, 'shape-run.js');
const WORKLOADS = ['stringify', 'parse'];
const YIELD_MS = 5;
// A child that has not answered by then is stopped and reported as a failure, so one stuck library cannot hang the run.
const CHILD_TIMEOUT_MS = 20 * 60 * 1000;
// What the lab's Node 24 services start with (mk/runtimes.mk, docker-compose.yml), for the children.
const NODE_OPTIONS = (process.env.NODE24_OPTIONS || '').split(/\s+/).filter(Boolean);

const USAGE = `usage: node js-serializers/bench/shapes-bench.js [--shape <text>] [--family <text>] [--corpus <text>]
         [--file <doc.json>] [--warm-ms N] [--rounds N] [--warmups N] [--passes N] [--scale <fraction>] [--workload stringify|parse]
         [--heap steady|cold] [--json]
(make bench-shapes SHAPES_ARGS="..." passes them); see the header of this file for what each one does`;
// The options that take a value, and those that stand alone. Anything else is refused before anything runs: a
// misspelt option must not start the whole half-hour run.
const VALUE_OPTIONS = ['--shape', '--family', '--corpus', '--file', '--warm-ms', '--rounds', '--warmups', '--passes', '--scale', '--workload', '--heap'];
const FLAGS = ['--json', '--help'];

/**
 * Throws, naming it, on the first argument that is not an option this script knows (or a known option's value), or
 * on an option given twice (only the first would count).
 */
function checkKnown(args) {
  const seen = new Set();
  for (let i = 0; i < args.length; i++) {
    if (!VALUE_OPTIONS.includes(args[i]) && !FLAGS.includes(args[i])) throw new Error(`unknown argument "${args[i]}"`);
    if (seen.has(args[i])) throw new Error(`${args[i]} given twice`);
    seen.add(args[i]);
    if (VALUE_OPTIONS.includes(args[i])) i++;
  }
}

/** The value after `name` in args as a positive finite number, or fallback when absent; throws otherwise. */
function positiveNumber(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`${name} needs a positive number`);
  return value;
}

/** The value after `name` in args, or fallback when absent; throws when the value is missing ('' is a value). */
function text(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  if (at + 1 >= args.length || args[at + 1].startsWith('--')) throw new Error(`${name} needs a value`);
  return args[at + 1];
}

/**
 * The documents of each set the command line selects (see the header), each list throwing, naming what there is, when
 * its filter matches nothing: {shapes, members, corpus}.
 */
function selection(args, scale) {
  const filters = { shape: text(args, '--shape', undefined), family: text(args, '--family', undefined), corpus: text(args, '--corpus', undefined) };
  const all = Object.values(filters).every((filter) => filter === undefined);
  const pick = (filter) => (all ? '' : filter);
  return {
    filters,
    shapes: pick(filters.shape) === undefined ? [] : shapesMatching(pick(filters.shape)),
    members: pick(filters.family) === undefined ? [] : membersMatching(pick(filters.family), scale),
    corpus: pick(filters.corpus) === undefined ? [] : documentsMatching(pick(filters.corpus)),
  };
}

/** Every option checked here, once: a bad one throws before anything runs. */
function readOptions(args) {
  checkKnown(args);
  const file = text(args, '--file', process.env.FILE || undefined);
  const workload = text(args, '--workload', undefined);
  if (workload !== undefined && !WORKLOADS.includes(workload)) throw new Error(`--workload is one of ${WORKLOADS.join(', ')}`);
  if (file !== undefined) {
    // Checked here once rather than in every child: the file must be JSON that native parses.
    try {
      JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`--file ${file}: ${err.message}`, { cause: err });
    }
  }
  const options = {
    file: file === undefined ? undefined : path.resolve(file),
    workloads: workload === undefined ? WORKLOADS : [workload],
    warmMs: option(args, '--warm-ms', 100),
    rounds: option(args, '--rounds', 3),
    warmups: option(args, '--warmups', 1),
    passes: option(args, '--passes', 3),
    scale: positiveNumber(args, '--scale', 1),
    heap: heapProtocol(text(args, '--heap', 'steady')),
    json: args.includes('--json'),
  };
  // Last: the corpus is looked for only once the rest of the command line is known to be good.
  if (file !== undefined) {
    const chosen = ['--shape', '--family', '--corpus'].filter((name) => args.includes(name));
    if (chosen.length > 0) throw new Error(`--file measures that file alone: not with ${chosen.join(', ')}`);
    return options;
  }
  return Object.assign(options, selection(args, options.scale));
}

/**
 * The documents to measure for a workload, each {shape (its name in the report), family, and how the child finds it:
 * shape, member or file}: the user's file; or the shapes that have this workload, the tree family members and the
 * corpus documents selected.
 */
function documentsFor(workload, options) {
  if (options.file !== undefined) return [{ shape: path.basename(options.file), family: 'file', file: options.file }];
  return options.shapes.filter((s) => s.workloads.includes(workload)).map((s) => ({ shape: s.name, family: 'shapes' }))
    .concat(options.members.map((m) => ({ shape: m.name, family: m.family, member: m.name })))
    .concat(options.corpus.map((doc) => ({ shape: doc.name, family: doc.family, file: doc.path })));
}

/** Runs one child; resolves to its parsed line, or {error} when it failed, timed out or printed no result. */
function runChild(spec) {
  return new Promise((resolve) => {
    execFile(process.execPath, NODE_OPTIONS.concat(['--expose-gc', RUN_SCRIPT, JSON.stringify(spec)]),
      { maxBuffer: 1 << 26, timeout: CHILD_TIMEOUT_MS, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
        if (err) {
          const lastLine = stderr.trim().split('\n').pop();
          const why = err.killed ? `no answer within ${CHILD_TIMEOUT_MS / 60000} min` : lastLine || err.message;
          resolve({ error: `child failed: ${why}`, warmups: [], runs: [] });
          return;
        }
        resolve(JSON.parse(stdout));
      });
  });
}

/**
 * Adds one pass's child outcome to its row: the runs and warm-ups join the row's, the pass's median is kept for the
 * spread; the first pass brings the document's size, native's output hash and V8's steps (timed once).
 */
function addPass(row, outcome) {
  if (row.passMedians.length === 0 && !row.error) {
    Object.assign(row, { bytes: outcome.bytes, referenceHash: outcome.referenceHash, steps: outcome.steps });
  } else if (!outcome.error && outcome.referenceHash !== row.referenceHash && !row.error) {
    row.error = 'native\'s output differed between passes: the document is not deterministic';
  }
  if (outcome.error && !row.error) row.error = outcome.error;
  row.warmCalls.push(outcome.warmCalls);
  row.repeats.push(outcome.repeats);
  row.warmups = row.warmups.concat(outcome.warmups);
  row.runs = row.runs.concat(outcome.runs);
  if (outcome.runs.length > 0) row.passMedians.push(median(outcome.runs.map((run) => run.ms)));
}

async function measure(options) {
  const results = [];
  for (const workload of options.workloads) {
    for (const doc of documentsFor(workload, options)) {
      const rows = APPROACHES[workload].map((approach) => ({
        workload, shape: doc.shape, family: doc.family, approach: approach.name, label: approach.label, kind: approach.kind,
        comparedWith: approach.comparedWith, warmCalls: [], repeats: [], warmups: [], runs: [], passMedians: [],
      }));
      for (let pass = 1; pass <= options.passes; pass++) {
        for (const [i, approach] of APPROACHES[workload].entries()) {
          process.stderr.write(`${workload} · ${doc.shape} · ${approach.label} · pass ${pass} of ${options.passes}\n`);
          const spec = {
            workload, approach: approach.name, shape: doc.file || doc.member ? undefined : doc.shape, member: doc.member, file: doc.file,
            scale: options.scale, warmMs: options.warmMs, warmups: options.warmups, rounds: options.rounds, yieldMs: YIELD_MS, heap: options.heap,
            steps: pass === 1,
          };
          addPass(rows[i], await runChild(spec));
        }
      }
      results.push(...rows);
    }
  }
  return results;
}

/** The (workload, shape) pairs whose children did not agree on native's output: the family must be deterministic. */
function nondeterministic(results) {
  const hashes = new Map();
  for (const r of results.filter((result) => result.referenceHash)) {
    const key = `${r.workload} · ${r.shape}`;
    hashes.set(key, (hashes.get(key) || new Set()).add(r.referenceHash));
  }
  return Array.from(hashes).filter(([, set]) => set.size > 1).map(([key]) => key);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(USAGE);
    return;
  }
  let options;
  try {
    options = readOptions(args);
  } catch (err) {
    // A bad command line: its message and the usage, not a stack.
    console.error(`${err.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  checkPeersInstalled();
  const started = performance.now();
  const loadAverage = os.loadavg();
  const results = await measure(options);
  const report = {
    benchmark: 'shapes',
    node: process.version,
    v8: process.versions.v8,
    nodeOptions: NODE_OPTIONS,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0].model,
    cpuLayout: cpuLayout(),
    loadAverage,
    loadAverageAtEnd: os.loadavg(),
    peers: packageVersions(peerRequire, Object.values(PEERS)),
    file: options.file,
    scale: options.file === undefined ? options.scale : undefined,
    // What the command line chose (undefined: not given; every set runs when none is).
    shapeFilter: options.filters && options.filters.shape,
    familyFilter: options.filters && options.filters.family,
    corpusFilter: options.filters && options.filters.corpus,
    yieldMs: YIELD_MS,
    heap: options.heap,
    warmMs: options.warmMs,
    warmups: options.warmups,
    rounds: options.rounds,
    passes: options.passes,
    at: new Date().toISOString(),
    totalSeconds: (performance.now() - started) / 1000,
    nondeterministic: nondeterministic(results),
    results,
  };
  const saved = saveBenchResults('shapes', report);
  if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else console.log(render(report));
  console.error(`raw results: ${saved} (${report.totalSeconds.toFixed(0)} s in all)`);
  for (const key of report.nondeterministic) console.error(`NOT DETERMINISTIC: the children of ${key} disagree on native's output`);
  const ownFailure = results.some((r) => r.kind !== 'peer' && (r.error || r.warmups.concat(r.runs).some((run) => !run.verified)));
  if (ownFailure || report.nondeterministic.length > 0) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exitCode = 1;
});
