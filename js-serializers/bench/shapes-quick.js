'use strict';
// The quick look to take before touching fast-stringify.js or fast-parse.js (`make bench-shapes-quick`, a few
// minutes): every member of the generated tree families (bench/tree-families.js: objects and arrays, small and large
// leaves, branching 2 to 600, two depths each) and of the record families (bench/record-families.js: maps of objects
// with long strings, arrays of small number records), three shapes of the full benchmark's family whose blocks the walk
// decides (SHAPE_MEMBERS) and the real-world documents (bench/real-documents.js, with json-ext's stringifyChunked
// and parseChunked beside fast on them) through native and fast's chunks(), pipeTo(), stringify() and parse(), side
// by side in one process, rounds taking turns; every output checked against native's before its time counts. pipeTo()
// is compared with native's text written to the same sink (`native write`), the others with native alone.
// Prints one line per family (each tree family, the shapes, each group of the corpus; bench/family-summary.js, the
// full benchmark's summary too): the worst ratio to native of each function (best of the rounds, member by member),
// over the documents of 1 MB and more and over the smaller ones apart (timed warm: each round's timing is a run of
// calls lasting about 2 ms of native's time, bench/repeated-calls.js), and the longest block fast took (median of the
// rounds, worst member). The full benchmark (make bench-shapes) runs each library in its own process on the large
// shapes; this one trades that isolation for minutes.
//
//   node --expose-gc js-serializers/bench/shapes-quick.js [--rounds N] [--scale F] [--family text] [--baseline REV]
//                                                        [--heap cold|steady]
//
// --family picks the documents whose family's name or own name contains the text ("objects, small leaves", or one
// member: "objects, small leaves, branching 600, depth 1"); a text that picks none is refused, naming the families.
// --heap cold (the default here: the least noise for a before/after, but it hides the scavenges young texts meet:
// docs/findings/js-serializers.md, "cold against steady") collects before each timing and gives the collection's
// aftermath a turn of the timers (heap-protocols.js' coldStart: it fell in the next run); --heap steady runs them back
// to back, as make bench-shapes does by default (bench/heap-protocols.js: what each one favours). Here the
// timing before is another approach's, in the same process (fast's parse follows native's, and meets its garbage):
// the full benchmark, a process per approach, is the one to read steady figures from.
// --baseline REV also runs fast-stringify.js and fast-parse.js as they were at git revision REV, in the same rounds
// (taking turns with today's), so a before/after comparison is made on the same machine at the same moment; their
// copies (REV's js-serializers/ and the packages it imports, in a temp folder) are removed on exit.
// Raw results go to results/bench/shapes-quick-<time>.json (with the runtime, the CPUs and the time); the lines are
// printed from that report. Exit code 1 when one of fast's outputs differs from native's (a peer's is printed as
// FAIL, a finding about the peer). Node 14 syntax.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { performance } = require('perf_hooks');
const { saveBenchResults } = require('@lab/bench-kit');
const { keepingSink } = require('./keeping-sink');
const { flatten } = require('./v8-steps');
const treeFamilies = require('./tree-families');
const recordFamilies = require('./record-families');
const { shapeNamed, generators } = require('./shapes');
const { approachOf, checkPeersInstalled, collect } = require('./shape-approaches');
const { realDocuments, DOCUMENTS, familyOf } = require('./real-documents');
const { summaryLines } = require('./family-summary');
const { heapProtocol, coldStart } = require('./heap-protocols');
const { repeatsFor } = require('./repeated-calls');
const fastParse = require('../fast-parse');

const YIELD_MS = 5;
// Beside the families, the shapes whose blocks a change to the walk is most likely to lengthen: the deep tree (a
// chain of 1000 levels), the bushy tree (a binary tree of objects under arrays) and a wrapper whose one field holds
// most of the document ({meta, data: {items}}), at a quarter of the full benchmark's size.
const SHAPES_SCALE = 0.25;
const SHAPE_MEMBERS = [
  { family: 'shapes', name: 'deep tree 2000 levels', make: () => shapeNamed('deep tree 2000 levels').make(SHAPES_SCALE) },
  { family: 'shapes', name: 'bushy tree depth 17', make: () => shapeNamed('bushy tree depth 17').make(SHAPES_SCALE) },
  {
    family: 'shapes',
    name: 'wrapper {meta, data: {items}}',
    make: () => ({ meta: { version: 3, source: 'quick' }, data: { items: generators.mixedRecords(Math.round(64000 * SHAPES_SCALE), 20).records } }),
  },
];
const USAGE = 'usage: node --expose-gc js-serializers/bench/shapes-quick.js [--rounds N] [--scale F] [--family text] [--baseline REV] [--heap cold|steady]';

/** The generated members at this scale: the tree families', then the record families'. */
const members = (scale) => treeFamilies.members(scale).concat(recordFamilies.members(scale));

function readArgs(argv) {
  const args = { rounds: 3, scale: 1, family: '', baseline: null, heap: 'cold' };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (argv[i] === '--help') throw new Error(USAGE);
    if (value === undefined) throw new Error(`${argv[i]} needs a value\n${USAGE}`);
    if (argv[i] === '--rounds' || argv[i] === '--scale') {
      const n = Number(value);
      if (!(n > 0) || !Number.isFinite(n) || (argv[i] === '--rounds' && !Number.isInteger(n))) throw new Error(`${argv[i]} needs a positive number`);
      args[argv[i].slice(2)] = n;
    } else if (argv[i] === '--family') args.family = value;
    else if (argv[i] === '--baseline') args.baseline = value;
    else if (argv[i] === '--heap') args.heap = heapProtocol(value);
    else throw new Error(`unknown argument "${argv[i]}"\n${USAGE}`);
  }
  return args;
}

// The folders fast-stringify.js and fast-parse.js may load, at any revision: their own, and the packages they import
// (node-kit before the event-loop toolkit became loop-kit; the Node agent's thread clock, which loop-kit's event-loop.js
// reads, since 2026-11-28: without it no revision since loaded).
const SNAPSHOT_FOLDERS = ['js-serializers', 'loop-kit', 'node-kit', 'agents/node-agent'];

/**
 * SNAPSHOT_FOLDERS as they were at revision rev (those it has), written from git into a folder of their own under the
 * system's temp folder and linked there by name as make setup links them: a module loaded from there (fast-parse.js
 * with its parts in fast-parse/, say) requires that revision's files, where a copy beside today's files would load
 * today's parts. Returns the folder and its remover.
 */
function snapshotAt(rev) {
  const root = path.join(__dirname, '..', '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fast-at-${rev.replace(/[^A-Za-z0-9]/g, '_')}-`));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on('exit', remove);
  const atRev = execFileSync('git', ['ls-tree', '--name-only', rev], { cwd: root, encoding: 'utf8' }).split('\n');
  const folders = SNAPSHOT_FOLDERS.filter((folder) => atRev.includes(folder.split('/')[0]) && gitHas(root, rev, folder));
  const archive = execFileSync('git', ['archive', rev].concat(folders), { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  execFileSync(path.join(root, 'scripts', 'link-packages.sh'), [dir]);
  return { dir, remove };
}

/** Whether revision rev has the path (a folder) of the repository at root. */
function gitHas(root, rev, folder) {
  return execFileSync('git', ['ls-tree', '--name-only', rev, folder], { cwd: root, encoding: 'utf8' }).trim() !== '';
}

/**
 * fast-stringify.js and fast-parse.js at revision rev: {stringify, parse, file (fast-stringify's copy, which
 * bench/modelled-work.js loads in a process of its own), remove()}.
 */
function loadBaseline(rev) {
  const snapshot = snapshotAt(rev);
  const file = path.join(snapshot.dir, 'js-serializers', 'fast-stringify.js');
  return { stringify: require(file), parse: require(path.join(snapshot.dir, 'js-serializers', 'fast-parse.js')), file, remove: snapshot.remove };
}

const sha256 = (text) => crypto.createHash('sha256').update(text === undefined ? '' : text).digest('hex');

/**
 * The approaches: name -> {parse, run(value, text, stats)} resolving to the output (a string or its chunks for a
 * stringify approach, the value for a parse approach), checked after the clock stops. A stringify approach's output
 * is made flat before its clock stops, as its consumer's first read (a write, a hash) would, and as the full
 * benchmark's collect does: Node 14's JSON.stringify returns a rope, whose flattening (half of native's time again on
 * the trees of long strings) would otherwise fall after native's clock, while fast's chunks, cut from such ropes,
 * are flattened inside its own. A flat string costs a character's read. json-ext's stringifyChunked and
 * parseChunked (bench/peers, the services' adapters, as the full benchmark drives them) run on the real documents only.
 */
function approachesOf(baseline) {
  const stringifyOf = (module, prefix) => ({
    [`${prefix}chunks`]: { run: (value, text, stats) => collect(module.chunks(value, { yieldMs: YIELD_MS, stats })) },
    [`${prefix}pipeTo`]: {
      run: async (value, text, stats) => {
        const { sink, kept } = keepingSink();
        await module.pipeTo(value, sink, { yieldMs: YIELD_MS, stats });
        return kept.map(flatten);
      },
    },
    [`${prefix}stringify`]: { run: async (value, text, stats) => flatten(await module.stringify(value, { yieldMs: YIELD_MS, stats })) },
  });
  const peer = (workload) => {
    const approach = approachOf(workload, 'json-ext');
    return { peer: true, parse: workload === 'parse', run: (value, text, stats) => approach.load()(workload === 'parse' ? text : value, { yieldMs: YIELD_MS, stats }) };
  };
  return Object.assign(
    {
      native: { run: async (value) => flatten(JSON.stringify(value)) },
      // pipeTo's like for like: native's text written to the same kind of sink. Against JSON.stringify alone, a
      // document done in one call also measured the Writable and its write: 0-19 % of native's time (1-8 us) on the
      // families' documents under 0.3 MB, whatever fast does.
      'native write': {
        run: async (value) => {
          const { sink, kept } = keepingSink();
          sink.write(JSON.stringify(value));
          return kept.map(flatten);
        },
      },
    },
    stringifyOf(require('../fast-stringify'), ''),
    baseline ? stringifyOf(baseline.stringify, 'before ') : {},
    { 'json-ext': peer('stringify') },
    {
      'native parse': { parse: true, run: async (value, text) => JSON.parse(text) },
      parse: { parse: true, run: (value, text, stats) => fastParse.parse(text, { yieldMs: YIELD_MS, stats }) },
    },
    baseline ? { 'before parse': { parse: true, run: (value, text, stats) => baseline.parse.parse(text, { yieldMs: YIELD_MS, stats }) } } : {},
    { 'json-ext parse': peer('parse') },
  );
}

/** An output as the text its hash is taken of: a stringify approach's text (its chunks joined), a parse's value as JSON. */
function outputText(approach, output) {
  if (approach.parse) return JSON.stringify(output);
  return Array.isArray(output) ? output.join('') : output;
}

/**
 * Times every approach on one member, rounds taking turns; {family, name, bytes, repeats, approaches: {name: {ms: [],
 * blockMs: [], verified}}}, ms a call's (the mean over `repeats` calls, repeatsFor()). A member gives make() (its value;
 * parse reads its JSON.stringify) or text() (its text as shipped; stringify takes its parsed value).
 */
async function measure(member, approaches, rounds, heap) {
  const text = member.text ? member.text() : null;
  const value = text === null ? member.make() : JSON.parse(text);
  const parseText = text === null ? JSON.stringify(value) : text;
  const reference = sha256(JSON.stringify(value));
  const names = Object.keys(approaches).filter((name) => !approaches[name].peer || member.peers);
  const bytes = Buffer.byteLength(parseText);
  const firstNative = performance.now();
  JSON.stringify(value);
  const repeats = repeatsFor(bytes, performance.now() - firstNative);
  const result = { family: member.family, name: member.name, bytes, repeats, approaches: {} };
  for (const name of names) result.approaches[name] = { ms: [], blockMs: [], verified: true };
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      if (heap === 'cold') await coldStart();
      const entry = result.approaches[name];
      let blockMs = 0;
      let output;
      const started = performance.now();
      for (let call = 0; call < repeats; call++) {
        const stats = {};
        const callStarted = performance.now();
        output = await approaches[name].run(value, parseText, stats);
        const callMs = performance.now() - callStarted;
        // native's own block is its whole run; a peer's is not measured here (the full benchmark's probes do).
        const callBlockMs = stats.maxSliceMs !== undefined ? stats.maxSliceMs : approaches[name].peer ? null : callMs;
        blockMs = blockMs === null || callBlockMs === null ? null : Math.max(blockMs, callBlockMs);
      }
      entry.ms.push((performance.now() - started) / repeats);
      entry.blockMs.push(blockMs);
      if (sha256(outputText(approaches[name], output)) !== reference) entry.verified = false;
    }
  }
  return result;
}

const best = (list) => Math.min.apply(null, list);
const median = (list) => {
  const known = list.filter((x) => x !== null).sort((a, b) => a - b);
  return known.length === 0 ? null : known[Math.floor(known.length / 2)];
};
/** The native approach a ratio is taken against: native parse for a parse, native's text written for a pipeTo. */
const nativeOf = (name) => (name.endsWith('parse') ? 'native parse' : name.endsWith('pipeTo') ? 'native write' : 'native');

/**
 * The report's lines (bench/family-summary.js): per family and approach, the worst ratio to native (best of rounds,
 * member by member) over the documents of 1 MB and more, then over the smaller ones, and the longest block (median of
 * rounds) over all; then every output that differed from native's.
 */
function render(report) {
  const rows = report.members.map((m) => {
    const approaches = {};
    for (const name of Object.keys(m.approaches).filter((n) => !n.startsWith('native'))) {
      const its = m.approaches[name];
      approaches[name] = { ratio: best(its.ms) / best(m.approaches[nativeOf(name)].ms), blockMs: median(its.blockMs), failed: !its.verified };
    }
    return { family: m.family, bytes: m.bytes, nativeBlockMs: median(m.approaches.native.blockMs), approaches };
  });
  const lines = summaryLines(rows);
  const failed = [];
  for (const m of report.members) for (const n of Object.keys(m.approaches)) if (!m.approaches[n].verified) failed.push(`${m.name}: ${n}`);
  if (failed.length > 0) lines.push(`FAIL (output differs from native's): ${failed.join('; ')}`);
  return lines.join('\n');
}

/** Whether --family's text picks a document: its family's name or its own contains it ('' picks every one). */
const picked = (filter, family, name) => family.includes(filter) || name.includes(filter);

/**
 * Throws, naming the families, when --family picks no document: a run of nothing printed an empty table and said
 * nothing of why. Told from the names alone, before anything is built or timed.
 */
function checkFamilyPicks(filter, scale) {
  const names = members(scale).concat(SHAPE_MEMBERS).map((m) => ({ family: m.family, name: m.name }))
    .concat(DOCUMENTS.map((doc) => ({ family: familyOf(doc), name: doc.name })));
  if (names.some((m) => picked(filter, m.family, m.name))) return;
  const families = Array.from(new Set(names.map((m) => m.family)));
  throw new Error(`--family "${filter}" is in no family's name nor any document's; the families: ${families.join('; ')}`);
}

async function main() {
  const args = readArgs(process.argv.slice(2));
  checkFamilyPicks(args.family, args.scale);
  const baseline = args.baseline ? loadBaseline(args.baseline) : null;
  const approaches = approachesOf(baseline);
  const report = {
    benchmark: 'shapes-quick',
    time: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0] && os.cpus()[0].model,
    execArgv: process.execArgv,
    yieldMs: YIELD_MS,
    rounds: args.rounds,
    heap: args.heap,
    scale: args.scale,
    baseline: args.baseline,
    members: [],
  };
  const withReal = DOCUMENTS.some((doc) => picked(args.family, familyOf(doc), doc.name));
  if (withReal) checkPeersInstalled();
  const real = withReal ? realDocuments().map((doc) => Object.assign({ peers: true }, doc)) : [];
  for (const member of members(args.scale).concat(SHAPE_MEMBERS, real)) {
    if (!picked(args.family, member.family, member.name)) continue;
    const result = await measure(member, approaches, args.rounds, args.heap);
    report.members.push(result);
    const n = result.approaches;
    const line = Object.keys(n).filter((k) => !k.startsWith('native'))
      .map((k) => `${k} ${(best(n[k].ms) / best(n[nativeOf(k)].ms)).toFixed(2)}x`);
    process.stderr.write(`${member.name} (${(result.bytes / 1e6).toFixed(2)} MB): ${line.join(', ')}\n`);
  }
  if (baseline) baseline.remove();
  const file = saveBenchResults('shapes-quick', report);
  process.stdout.write(`${render(report)}\nraw results: ${path.relative(process.cwd(), file)}\n`);
  // A peer's wrong output is a finding about the peer, printed as FAIL; fast's or native's fails the run.
  const failed = report.members.some((m) => Object.keys(m.approaches).some((n) => !m.approaches[n].verified && !n.startsWith('json-ext')));
  process.exitCode = failed ? 1 : 0;
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  });
}

module.exports = { render, loadBaseline };
